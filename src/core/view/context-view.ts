import { compacted, context } from '../tree/context.ts';
import { ABORTED_TOOL_TEXT, type ContextOptions } from '../tree/messages.ts';
import type { ModelMessage } from '../tree/model-message.ts';
import type { Entry } from '../schema/types.ts';
import { clip, isObject, num, prettyJson, str } from './parts.ts';
import type { ContextMessageView, ContextPartView, ContextView } from './types.ts';

/** Longest text of one context part sent to the page. */
const PART_CHARS = 20_000;
/** At most this many "not sent" entries are listed. */
const MAX_DROPPED = 2000;

type Reason = ContextView['dropped'][number]['reason'];

function textPart(kind: ContextPartView['kind'], text: string, extra: Partial<ContextPartView> = {}): ContextPartView {
  const cut = clip(text, PART_CHARS);
  return { kind, text: cut.text, ...(cut.truncated ? { truncated: true } : {}), ...extra };
}

/** One model message as display parts; a tool result for a call with no real result is synthetic. */
function toMessageView(message: ModelMessage, realResults: ReadonlySet<string>): ContextMessageView {
  if (typeof message.content === 'string') return { role: message.role, parts: [textPart('text', message.content)] };
  const parts: ContextPartView[] = [];
  for (const part of message.content as unknown as Array<Record<string, unknown>>) {
    switch (part.type) {
      case 'text':
        parts.push(textPart('text', str(part.text)));
        break;
      case 'reasoning':
        parts.push(textPart('reasoning', str(part.text)));
        break;
      case 'tool-call':
        parts.push(textPart('tool-call', prettyJson(part.input), { toolName: str(part.toolName) }));
        break;
      case 'tool-result': {
        const output = isObject(part.output) ? part.output : {};
        const value = output.value;
        const text =
          typeof value === 'string'
            ? value
            : Array.isArray(value)
              ? value.map((v) => (isObject(v) && v.type === 'text' ? str(v.text) : '[image]')).join('\n')
              : prettyJson(value);
        const isError = output.type === 'error-text';
        const synthetic = isError && text === ABORTED_TOOL_TEXT && !realResults.has(str(part.toolCallId));
        parts.push(textPart('tool-result', text, { toolName: str(part.toolName), isError, ...(synthetic ? { synthetic: true } : {}) }));
        break;
      }
      case 'image':
        parts.push({ kind: 'image', text: str(part.mediaType, 'image') });
        break;
      case 'file':
        parts.push({ kind: 'file', text: `${str(part.filename, 'file')} (${str(part.mediaType)})` });
        break;
      default:
        parts.push(textPart('other', prettyJson(part)));
    }
  }
  return { role: message.role, parts };
}

/** Why an entry of the branch sends nothing, or null when it does contribute. */
function reasonOf(entry: Entry): Reason | null {
  switch (entry.type) {
    case 'message': {
      const m = isObject(entry.message) ? entry.message : {};
      if (m.role === 'assistant') {
        if (m.retryRecovery !== undefined && m.retryRecovery !== null) return 'retried';
        const content = Array.isArray(m.content) ? m.content : [];
        const sends = content.some((p) => isObject(p) && ((p.type === 'text' && str(p.text).trim() !== '') || p.type === 'toolCall' || p.type === 'image'));
        return sends ? null : 'empty-turn';
      }
      if (m.role === 'bashExecution') return m.excludeFromContext === true ? 'excluded' : null;
      return m.role === 'user' || m.role === 'toolResult' || m.role === 'custom' ? null : 'not-sent';
    }
    case 'custom_message':
      return null;
    case 'branch_summary':
      return str(entry.summary) ? null : 'not-sent';
    default:
      return 'not-sent';
  }
}

function describe(entry: Entry): string {
  if (entry.type === 'message' && isObject(entry.message)) return `${str(entry.message.role, 'message')} message`;
  return str(entry.type, 'entry');
}

/**
 * "What the model sees" for a branch: the core's `context` output as display parts (the
 * compaction summary first), with synthetic tool results marked and every entry that sends
 * nothing listed with the reason. `itemOf` maps entry ids to transcript positions.
 */
export function buildContextView(
  branch: readonly Entry[],
  leafId: string | null,
  itemOf: (entryId: string) => number | null,
  model: string | null,
  opts: ContextOptions = {},
): ContextView {
  const { compaction, kept } = compacted(branch);
  const realResults = new Set<string>();
  for (const e of branch) {
    if (e.type === 'message' && isObject(e.message) && e.message.role === 'toolResult') realResults.add(str(e.message.toolCallId));
  }
  const messages = context(branch, opts).map((m) => toMessageView(m, realResults));
  if (compaction && messages.length) messages[0].summary = true;
  const dropped: ContextView['dropped'] = [];
  const keptStart = compaction ? (kept.length ? branch.indexOf(kept[0]) : branch.indexOf(compaction)) : 0;
  branch.forEach((entry, i) => {
    if (dropped.length >= MAX_DROPPED || entry === compaction) return;
    const reason: Reason | null = i < keptStart ? 'summarized' : reasonOf(entry);
    if (!reason) return;
    const entryId = str(entry.id);
    dropped.push({ entryId, index: itemOf(entryId), reason, what: describe(entry) });
  });
  return {
    leafId,
    messages,
    dropped,
    compaction: compaction
      ? {
          entryId: str(compaction.id),
          tokensBefore: num(compaction.tokensBefore),
          tokensAfter: num(compaction.tokensAfter),
          firstKeptEntryId: str(compaction.firstKeptEntryId) || null,
        }
      : null,
    model,
  };
}
