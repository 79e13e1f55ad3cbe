import { clip, contentImages, contentParts, contentText, imageRef, isObject, num, prettyJson, splitUserContent, str, type Loose } from './parts.ts';
import { dataSummary, fileMentionDraft } from './state-items.ts';
import { previewOf } from './outline.ts';
import { orphanToolView, toResultView, toToolView } from './tools.ts';
import type { SessionSource } from './source.ts';
import { usageTotal } from '../tree/usage.ts';
import { messageOf, ownerRow, PAIR_REACH } from './branch-scan.ts';
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
