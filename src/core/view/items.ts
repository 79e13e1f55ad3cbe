import { clip, contentImages, contentParts, contentText, imageRef, isObject, num, prettyJson, splitUserContent, str, type Loose } from './parts.ts';
import { dataSummary, fileMentionDraft } from './state-items.ts';
import { previewOf } from './outline.ts';
import { orphanToolView, toResultView, toToolView } from './tools.ts';
import type { SessionSource } from './source.ts';
import { usageTotal } from '../usage.ts';
import type { AssistantBlock, ImageRef, RenderItem, ToolView, UsageView } from './types.ts';

type Draft = RenderItem extends infer T ? (T extends RenderItem ? Omit<T, 'index' | 'entryId' | 'line'> : never) : never;

/** The kind of a loop notice: the part of customType after its last '.', when notice/error/aside. */
function noticeOf(customType: string): 'notice' | 'error' | 'aside' | null {
  const kind = customType.slice(customType.lastIndexOf('.') + 1);
  return kind === 'notice' || kind === 'error' || kind === 'aside' ? kind : null;
}

function toUsage(usage: unknown): UsageView | null {
  if (!isObject(usage)) return null;
  const cost = isObject(usage.cost) ? num(usage.cost.total) : num(usage.cost);
  return {
    input: num(usage.input) ?? 0,
    output: num(usage.output) ?? 0,
    cacheRead: num(usage.cacheRead) ?? 0,
    cacheWrite: num(usage.cacheWrite) ?? 0,
    totalTokens: usageTotal(usage),
    cost: cost ?? 0,
  };
}

/** Assistant content in streamed order; tool calls are registered for pairing. */
function assistantBlocks(message: Loose, entryId: string, pending: Map<string, ToolView>): AssistantBlock[] {
  const blocks: AssistantBlock[] = [];
  const content = Array.isArray(message.content) ? message.content : contentParts(message.content);
  content.forEach((part, i) => {
    if (!isObject(part)) return;
    if (part.type === 'text') blocks.push({ kind: 'text', text: clip(str(part.text)).text });
    else if (part.type === 'thinking')
      blocks.push({
        kind: 'thinking',
        text: part.redacted === true ? '' : clip(str(part.thinking)).text,
        redacted: part.redacted === true,
        ...(str(part.thinkingSignature) || str(part.signature) ? { signed: true } : {}),
      });
    else if (part.type === 'redactedThinking') blocks.push({ kind: 'thinking', text: '', redacted: true });
    else if (part.type === 'image') blocks.push({ kind: 'image', image: imageRef(part, entryId, i) });
    else if (part.type === 'toolCall') {
      const tool = toToolView(part);
      if (tool.callId) pending.set(tool.callId, tool);
      blocks.push({ kind: 'tool', tool });
    } else blocks.push({ kind: 'other', type: str(part.type, 'part'), json: clip(prettyJson(part), 4000).text });
  });
  return blocks;
}

function bashImages(message: Loose, entryId: string): ImageRef[] {
  return Array.isArray(message.images) ? contentImages(message.images, entryId) : [];
}

/** The item of one `message` entry, or null when it was folded into an earlier tool call. */
function messageDraft(entry: Loose, entryId: string, pending: Map<string, ToolView>, folded: (id: string) => void): Draft | null {
  const message = isObject(entry.message) ? entry.message : {};
  const role = str(message.role);
  if (role === 'user' || role === 'developer') {
    const { text, attachments, images } = splitUserContent(message.content, entryId);
    const from = typeof message.from === 'string' ? message.from : undefined;
    return {
      kind: 'user',
      text: clip(text).text,
      attachments,
      images,
      steering: message.steering === true,
      synthetic: message.synthetic === true || role === 'developer',
      from,
      ask: message.ask !== undefined && message.ask !== null && message.ask !== false,
    };
  }
  if (role === 'assistant') {
    return {
      kind: 'assistant',
      blocks: assistantBlocks(message, entryId, pending),
      model: typeof message.model === 'string' ? message.model : null,
      provider: typeof message.provider === 'string' ? message.provider : null,
      stopReason: typeof message.stopReason === 'string' ? message.stopReason : null,
      errorMessage: typeof message.errorMessage === 'string' ? message.errorMessage : null,
      usage: toUsage(message.usage),
    };
  }
  if (role === 'toolResult') {
    const call = pending.get(str(message.toolCallId));
    if (call && !call.result) {
      call.result = toResultView(message, entryId);
      folded(entryId);
      return null;
    }
    return { kind: 'toolResult', tool: orphanToolView(message, entryId) };
  }
  if (role === 'bashExecution' || role === 'pythonExecution') {
    return {
      kind: 'bash',
      command: clip(str(role === 'bashExecution' ? message.command : message.code)).text,
      output: clip(str(message.output)).text,
      exitCode: num(message.exitCode),
      cancelled: message.cancelled === true,
      truncated: message.truncated === true,
      excluded: message.excludeFromContext === true,
      language: role === 'bashExecution' ? 'bash' : 'python',
      images: bashImages(message, entryId),
    };
  }
  if (role === 'custom' || role === 'hookMessage') return customDraft(message, entryId, true);
  if (role === 'fileMention') return fileMentionDraft(message);
  return { kind: 'unknown', type: `message (${role || 'no role'})` };
}

function customDraft(source: Loose, entryId: string, inContext: boolean): Draft {
  const customType = str(source.customType, 'custom-message');
  const notice = noticeOf(customType);
  const text = clip(contentText(source.content)).text;
  const images = contentImages(source.content, entryId);
  if (notice) return { kind: 'notice', notice, customType, text, images };
  return { kind: 'custom', customType, text, images, display: source.display !== false, inContext };
}

function modelChangeText(entry: Loose): string {
  const model = typeof entry.model === 'string' ? entry.model : `${str(entry.provider, '?')}/${str(entry.modelId, '?')}`;
  const role = str(entry.role);
  return role && role !== 'default' ? `Model (${role}): ${model}` : `Model: ${model}`;
}

function shortJson(value: unknown): string {
  return clip(typeof value === 'string' ? value : prettyJson(value), 2000).text;
}

/** The draft of any entry type; `null` when folded into an earlier item. */
function entryDraft(entry: Loose, entryId: string, pending: Map<string, ToolView>, folded: (id: string) => void): Draft | null {
  switch (entry.type) {
    case 'message':
      return messageDraft(entry, entryId, pending, folded);
    case 'custom_message':
      return customDraft(entry, entryId, true);
    case 'model_change':
      return { kind: 'divider', type: 'model_change', text: modelChangeText(entry) };
    case 'thinking_level_change':
      return {
        kind: 'divider',
        type: 'thinking_level_change',
        text: `Thinking: ${str(entry.thinkingLevel, 'off')}${typeof entry.configured === 'string' ? ` (configured ${entry.configured})` : ''}`,
      };
    case 'reset_boundary':
      return { kind: 'divider', type: 'reset_boundary', text: 'Context reset: the model sees nothing before this point' };
    case 'service_tier_change':
      return { kind: 'divider', type: 'service_tier_change', text: `Service tier: ${shortJson(entry.serviceTier ?? 'default')}` };
    case 'mode_change':
      return { kind: 'divider', type: 'mode_change', text: `Mode: ${str(entry.mode, 'none')}` };
    case 'session_info':
      return { kind: 'divider', type: 'session_info', text: str(entry.name) ? `Session named “${str(entry.name)}”` : 'Session name cleared' };
    case 'title_change':
      return { kind: 'divider', type: 'title_change', text: `Title: ${str(entry.title)}${entry.source === 'auto' ? ' (auto)' : ''}` };
    case 'compaction':
      return {
        kind: 'compaction',
        summary: clip(str(entry.summary)).text,
        tokensBefore: num(entry.tokensBefore),
        tokensAfter: num(entry.tokensAfter),
        firstKeptEntryId: typeof entry.firstKeptEntryId === 'string' && entry.firstKeptEntryId ? entry.firstKeptEntryId : null,
        firstKeptIndex: null,
        method: typeof entry.method === 'string' ? entry.method : null,
      };
    case 'branch_summary':
      return { kind: 'branchSummary', summary: clip(str(entry.summary)).text, fromId: str(entry.fromId) };
    case 'label':
      return { kind: 'labelChange', targetId: str(entry.targetId), text: str(entry.label) };
    case 'custom':
      return { kind: 'state', type: `custom: ${str(entry.customType, '?')}`, text: shortJson(entry.data ?? null), summary: dataSummary(entry.data) };
    case 'model_usage': {
      const usage = toUsage(entry.usage);
      return {
        kind: 'state',
        type: 'model usage',
        text: `${str(entry.purpose, 'side call')} · ${str(entry.provider)}/${str(entry.model)} · ${usage?.totalTokens ?? 0} tokens`,
      };
    }
    case 'ttsr_injection':
      return { kind: 'state', type: 'rules injected', text: Array.isArray(entry.injectedRules) ? entry.injectedRules.map((r) => String(r)).join(', ') : '' };
    case 'session_init':
      return { kind: 'state', type: 'session init', text: clip(str(entry.task), 4000).text };
    case 'credential_pin':
      return { kind: 'state', type: 'credential pin', text: str(entry.provider) };
    default:
      return { kind: 'unknown', type: str(entry.type, '(no type)') };
  }
}

/** Row flags computed by the scan (every body of the branch read once, on first need). */
/** A user message. */
export const ROW_USER = 1;
/** A row with tool activity (a call, a result on its own, a shell command). */
export const ROW_TOOL = 2;
/** A failure: errored turn, failed tool, error notice, failed command. */
export const ROW_ERROR = 4;
/** An assistant row that says something beyond tool calls and thinking. */
export const ROW_PROSE = 8;
/** A row that only shows tool activity (tool result without its call, user shell command). */
export const ROW_TOOL_ONLY = 16;
/** An assistant turn. */
export const ROW_ASSISTANT = 32;
/** A tool result shown inside the row of its call (the row itself renders nothing). */
export const ROW_FOLDED = 64;

/** How far (in entries) a tool result is looked for after its call, and a call before its result. */
const PAIR_REACH = 400;

/** Flags of every row of a branch, from one pass over its bodies. */
export interface BranchScan {
  flags: Uint8Array;
}

function messageOf(entry: Loose): Loose | null {
  return entry.type === 'message' && isObject(entry.message) ? entry.message : null;
}

function callIds(message: Loose): string[] {
  const content = Array.isArray(message.content) ? message.content : [];
  const ids: string[] = [];
  for (const part of content) if (isObject(part) && part.type === 'toolCall' && typeof part.id === 'string' && part.id) ids.push(part.id);
  return ids;
}

/**
 * The row of the call a tool result at `row` answers, or null when it stands alone. Pairing is
 * local: a result belongs to the nearest assistant message before it (no user or assistant
 * message in between) that made the call, unless an earlier result already answered it.
 */
export function ownerRow(source: SessionSource, branch: readonly number[], row: number): number | null {
  const message = messageOf(source.body(branch[row]));
  if (message?.role !== 'toolResult') return null;
  const callId = str(message.toolCallId);
  for (let r = row - 1; r >= 0 && r >= row - PAIR_REACH; r--) {
    const m = messageOf(source.body(branch[r]));
    if (!m) continue;
    if (m.role === 'toolResult') {
      if (str(m.toolCallId) === callId) return null;
      continue;
    }
    if (m.role === 'assistant') return callIds(m).includes(callId) ? r : null;
    if (m.role === 'user') return null;
  }
  return null;
}

function assistantFlags(message: Loose): number {
  let flags = ROW_ASSISTANT;
  const content = Array.isArray(message.content) ? message.content : [];
  for (const part of content) {
    if (!isObject(part)) continue;
    if (part.type === 'toolCall') flags |= ROW_TOOL;
    else if ((part.type === 'text' && typeof part.text === 'string' && part.text.trim()) || part.type === 'image') flags |= ROW_PROSE;
  }
  if (message.stopReason === 'error' || typeof message.errorMessage === 'string') flags |= ROW_ERROR | ROW_PROSE;
  if (typeof message.content === 'string' && message.content.trim()) flags |= ROW_PROSE;
  return flags;
}

/** Reads every body of a branch once and flags each row (for filters and keyboard marks). */
export function scanBranch(source: SessionSource, branch: readonly number[]): BranchScan {
  const flags = new Uint8Array(branch.length);
  let pending = new Map<string, number>();
  for (let row = 0; row < branch.length; row++) {
    const entry = source.body(branch[row]);
    const message = messageOf(entry);
    const role = message?.role;
    let f = 0;
    if (message && role === 'toolResult') {
      const owner = pending.get(str(message.toolCallId));
      if (owner !== undefined) {
        pending.delete(str(message.toolCallId));
        flags[row] = ROW_FOLDED;
        if (message.isError === true) flags[owner] |= ROW_ERROR;
        continue;
      }
      f = ROW_TOOL | ROW_TOOL_ONLY | (message.isError === true ? ROW_ERROR : 0);
    } else if (message && role === 'user') {
      f = ROW_USER;
      pending = new Map();
    } else if (message && role === 'assistant') {
      f = assistantFlags(message);
      pending = new Map();
      for (const id of callIds(message)) pending.set(id, row);
    } else if (message && (role === 'bashExecution' || role === 'pythonExecution')) {
      f = ROW_TOOL | ROW_TOOL_ONLY;
      if (typeof message.exitCode === 'number' && message.exitCode !== 0) f |= ROW_ERROR;
    } else if (entry.type === 'custom_message' && str(entry.customType).endsWith('.error')) f = ROW_ERROR;
    flags[row] = f;
  }
  return { flags };
}

/**
 * The item of one row of a branch (`index` is its position in the list sent). An assistant turn
 * carries the results of its calls; a result shown there is a `folded` row that renders nothing.
 */
export function buildItem(source: SessionSource, branch: readonly number[], row: number, index: number): RenderItem {
  const at = branch[row];
  const entry = source.body(at);
  const entryId = str(entry.id);
  const line = source.index.lines[at] ?? 0;
  const owner = ownerRow(source, branch, row);
  if (owner !== null) return { kind: 'folded', ownerIndex: owner, index, entryId, line };
  const pending = new Map<string, ToolView>();
  const draft = entryDraft(entry, entryId, pending, () => {}) ?? { kind: 'unknown' as const, type: str(entry.type) };
  const item = { ...draft, index, entryId, line } as RenderItem;
  if (typeof entry.timestamp === 'string') item.timestamp = entry.timestamp;
  const label = source.labels().get(entryId);
  if (label) item.label = label;
  if (item.kind === 'labelChange') {
    // Name the labelled entry as the reader shows it (#line, first words), not by its raw id.
    const target = source.index.indexById.get(item.targetId);
    item.targetLine = target === undefined ? null : (source.index.lines[target] ?? null);
    const body = target === undefined ? null : source.body(target);
    item.targetPreview = body ? previewOf(body).slice(0, 60) || str(isObject(body.message) ? body.message.role : body.type) : '';
  }
  if (pending.size) {
    for (let r = row + 1; r < branch.length && r <= row + PAIR_REACH && pending.size; r++) {
      const next = source.body(branch[r]);
      const m = messageOf(next);
      if (!m) continue;
      if (m.role === 'user' || m.role === 'assistant') break;
      if (m.role !== 'toolResult') continue;
      const call = pending.get(str(m.toolCallId));
      if (!call) continue;
      pending.delete(str(m.toolCallId));
      call.result = toResultView(m, str(next.id));
      (item.alsoIds ??= []).push(str(next.id));
    }
  }
  return item;
}
