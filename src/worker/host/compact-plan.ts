// What a compaction summarizes and keeps, as pi's prepareCompaction decides it (pi-coding-agent
// 0.73.1 dist/core/compaction): estimated tokens (chars / 4, the last reply's usage when there is
// one), a cut point keeping about `keepRecentTokens` of the latest messages (never at a tool
// result), a turn cut in two summarized apart, the files read and modified from tool calls.
import {
  bashExecutionToText,
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  compacted,
  type Entry,
} from '../../core/index.ts';

/** pi's defaults: keep about 20,000 tokens; a summary may use 80% of 16,384. */
export const KEEP_RECENT_TOKENS = 20_000;
export const RESERVE_TOKENS = 16_384;

type Msg = Record<string, unknown> & { role: string };
type Block = Record<string, unknown>;
const blocks = (c: unknown): Block[] => (Array.isArray(c) ? (c as Block[]) : typeof c === 'string' ? [{ type: 'text', text: c }] : []);

/** The message an entry stands for in pi's context (getMessageFromEntry), or null. */
export function messageOf(e: Entry): Msg | null {
  if (e.type === 'message' && e.message && typeof e.message === 'object') return e.message as Msg;
  if (e.type === 'custom_message') return { role: 'custom', content: e.content };
  if (e.type === 'branch_summary' && e.summary) return { role: 'branchSummary', summary: e.summary };
  if (e.type === 'compaction') return { role: 'compactionSummary', summary: e.summary };
  return null;
}

/** pi's estimateTokens: characters / 4, rounded up; a picture in a tool result counts 1,200 tokens. */
export function estimateTokens(m: Msg): number {
  let chars = 0;
  if (m.role === 'user') for (const b of blocks(m.content)) chars += b.type === 'text' && typeof b.text === 'string' ? b.text.length : 0;
  else if (m.role === 'assistant') {
    for (const b of blocks(m.content)) {
      if (b.type === 'text') chars += String(b.text ?? '').length;
      else if (b.type === 'thinking') chars += String(b.thinking ?? '').length;
      else if (b.type === 'toolCall') chars += String(b.name ?? '').length + JSON.stringify(b.arguments ?? {}).length;
    }
  } else if (m.role === 'custom' || m.role === 'toolResult') {
    for (const b of blocks(m.content)) chars += (b.type === 'text' && typeof b.text === 'string' ? b.text.length : 0) + (b.type === 'image' ? 4800 : 0);
  } else if (m.role === 'bashExecution') chars = String(m.command ?? '').length + String(m.output ?? '').length;
  else if (m.role === 'branchSummary' || m.role === 'compactionSummary') chars = String(m.summary ?? '').length;
  return Math.ceil(chars / 4);
}

const usageOf = (m: Msg) =>
  m.role === 'assistant' && m.stopReason !== 'aborted' && m.stopReason !== 'error' && m.usage && typeof m.usage === 'object'
    ? (m.usage as Record<string, number>)
    : null;

/** pi's estimateContextTokens over the messages a branch sends: the last reply's usage plus what came after it. */
export function estimateContextTokens(messages: readonly Msg[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const u = usageOf(messages[i]);
    if (!u) continue;
    let tokens = u.totalTokens || (u.input ?? 0) + (u.output ?? 0) + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0);
    for (let j = i + 1; j < messages.length; j++) tokens += estimateTokens(messages[j]);
    return tokens;
  }
  return messages.reduce((n, m) => n + estimateTokens(m), 0);
}

/** The messages pi's buildSessionContext gives for a branch (compaction summary first). */
export function contextMessages(branch: readonly Entry[]): Msg[] {
  const { compaction, kept, later } = compacted(branch);
  const entries = compaction ? [compaction, ...kept, ...later] : later;
  return entries.map(messageOf).filter((m): m is Msg => m !== null);
}

const isCutPoint = (e: Entry) =>
  e.type === 'branch_summary' || e.type === 'custom_message' || (e.type === 'message' && (e.message as Msg | undefined)?.role !== 'toolResult');
const startsTurn = (e: Entry) =>
  e.type === 'branch_summary' || e.type === 'custom_message' || (e.type === 'message' && ['user', 'bashExecution'].includes(String((e.message as Msg)?.role)));

/** pi's findCutPoint over [start, end). */
export function findCutPoint(path: readonly Entry[], start: number, end: number, keep: number): { firstKept: number; turnStart: number; split: boolean } {
  const cuts: number[] = [];
  for (let i = start; i < end; i++) if (isCutPoint(path[i])) cuts.push(i);
  if (cuts.length === 0) return { firstKept: start, turnStart: -1, split: false };
  let cut = cuts[0];
  let acc = 0;
  for (let i = end - 1; i >= start; i--) {
    if (path[i].type !== 'message') continue;
    acc += estimateTokens(path[i].message as Msg);
    if (acc >= keep) {
      cut = cuts.find((c) => c >= i) ?? cut;
      break;
    }
  }
  while (cut > start && path[cut - 1].type !== 'compaction' && path[cut - 1].type !== 'message') cut--;
  const isUser = path[cut].type === 'message' && (path[cut].message as Msg)?.role === 'user';
  let turnStart = -1;
  if (!isUser) for (let i = cut; i >= start && turnStart < 0; i--) if (startsTurn(path[i])) turnStart = i;
  return { firstKept: cut, turnStart, split: !isUser && turnStart !== -1 };
}

/** What a compaction of a branch will summarize and keep. */
export interface CompactionPlan {
  firstKeptEntryId: string;
  toSummarize: Msg[];
  turnPrefix: Msg[];
  tokensBefore: number;
  previousSummary?: string;
  readFiles: string[];
  modifiedFiles: string[];
}

/** pi's prepareCompaction; null when there is nothing to compact (the branch ends in a compaction, or is empty). */
export function planCompaction(path: readonly Entry[], keep = KEEP_RECENT_TOKENS): CompactionPlan | null {
  if (path.length === 0 || path[path.length - 1].type === 'compaction') return null;
  let prev = -1;
  for (let i = path.length - 1; i >= 0 && prev < 0; i--) if (path[i].type === 'compaction') prev = i;
  let start = 0;
  let previousSummary: string | undefined;
  const read = new Set<string>();
  const modified = new Set<string>();
  if (prev >= 0) {
    const c = path[prev];
    previousSummary = String(c.summary ?? '');
    const kept = path.findIndex((e) => e.id === c.firstKeptEntryId);
    start = kept >= 0 ? kept : prev + 1;
    const d = c.fromHook ? null : (c.details as { readFiles?: unknown; modifiedFiles?: unknown } | undefined);
    if (Array.isArray(d?.readFiles)) for (const f of d.readFiles) read.add(String(f));
    if (Array.isArray(d?.modifiedFiles)) for (const f of d.modifiedFiles) modified.add(String(f));
  }
  const tokensBefore = estimateContextTokens(contextMessages(path));
  const cut = findCutPoint(path, start, path.length, keep);
  const first = path[cut.firstKept];
  if (!first?.id) return null;
  const historyEnd = cut.split ? cut.turnStart : cut.firstKept;
  const pick = (from: number, to: number) =>
    path
      .slice(from, to)
      .filter((e) => e.type !== 'compaction')
      .map(messageOf)
      .filter((m): m is Msg => m !== null);
  const toSummarize = pick(start, historyEnd);
  const turnPrefix = cut.split ? pick(cut.turnStart, cut.firstKept) : [];
  for (const m of [...toSummarize, ...turnPrefix]) {
    if (m.role !== 'assistant') continue;
    for (const b of blocks(m.content)) {
      const p = b.type === 'toolCall' ? (b.arguments as Record<string, unknown> | undefined)?.path : undefined;
      if (typeof p !== 'string') continue;
      if (b.name === 'read') read.add(p);
      else if (b.name === 'write' || b.name === 'edit') modified.add(p);
    }
  }
  return {
    firstKeptEntryId: String(first.id),
    toSummarize,
    turnPrefix,
    tokensBefore,
    ...(previousSummary !== undefined ? { previousSummary } : {}),
    readFiles: [...read].filter((f) => !modified.has(f)).sort(),
    modifiedFiles: [...modified].sort(),
  };
}

/** pi's formatFileOperations: the file lists appended to a summary. */
export function fileSections(readFiles: string[], modifiedFiles: string[]): string {
  const s: string[] = [];
  if (readFiles.length) s.push(`<read-files>\n${readFiles.join('\n')}\n</read-files>`);
  if (modifiedFiles.length) s.push(`<modified-files>\n${modifiedFiles.join('\n')}\n</modified-files>`);
  return s.length ? `\n\n${s.join('\n\n')}` : '';
}

const cutText = (t: string, max = 2000) => (t.length <= max ? t : `${t.slice(0, max)}\n\n[... ${t.length - max} more characters truncated]`);
const textOf = (c: unknown) =>
  blocks(c)
    .filter((b) => b.type === 'text')
    .map((b) => String(b.text))
    .join('');

// pi's convertToLlm for the roles that become user text.
function asUserText(m: Msg): string | null {
  if (m.role === 'user' || m.role === 'custom') return textOf(m.content);
  if (m.role === 'branchSummary') return BRANCH_SUMMARY_PREFIX + String(m.summary) + BRANCH_SUMMARY_SUFFIX;
  if (m.role === 'compactionSummary') return COMPACTION_SUMMARY_PREFIX + String(m.summary) + COMPACTION_SUMMARY_SUFFIX;
  if (m.role === 'bashExecution') return m.excludeFromContext ? null : bashExecutionToText(m);
  return null;
}

/** pi's serializeConversation (after convertToLlm): the conversation as text the summarizer reads. */
export function serializeConversation(messages: readonly Msg[]): string {
  const parts: string[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') {
      const text: string[] = [];
      const thinking: string[] = [];
      const calls: string[] = [];
      for (const b of blocks(m.content)) {
        if (b.type === 'text') text.push(String(b.text));
        else if (b.type === 'thinking') thinking.push(String(b.thinking));
        else if (b.type === 'toolCall') {
          const args = Object.entries((b.arguments ?? {}) as Record<string, unknown>).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
          calls.push(`${String(b.name)}(${args.join(', ')})`);
        }
      }
      if (thinking.length) parts.push(`[Assistant thinking]: ${thinking.join('\n')}`);
      if (text.length) parts.push(`[Assistant]: ${text.join('\n')}`);
      if (calls.length) parts.push(`[Assistant tool calls]: ${calls.join('; ')}`);
    } else if (m.role === 'toolResult') {
      const t = textOf(m.content);
      if (t) parts.push(`[Tool result]: ${cutText(t)}`);
    } else {
      const t = asUserText(m);
      if (t) parts.push(`[User]: ${t}`);
    }
  }
  return parts.join('\n\n');
}
