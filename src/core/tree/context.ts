// The model context of a branch (§0.2.3, §0.3.1): split at the latest compaction, summary first.
import { attachments } from './readers.ts';
import { COMPACTION_SUMMARY_PREFIX, COMPACTION_SUMMARY_SUFFIX, messages, type ContextOptions } from './messages.ts';
import type { ModelMessage } from './model-message.ts';
import type { Entry } from '../schema/types.ts';

/** A branch split at its latest compaction. */
export interface Compacted {
  compaction: Entry | null;
  /** From the compaction's `firstKeptEntryId` up to it (empty when that entry is not before it). */
  kept: Entry[];
  /** Everything after the compaction (the whole branch when there is none). */
  later: Entry[];
}

/** Splits a branch at its latest compaction: `{compaction, kept, later}`; without one `{null, [], branch}`. */
export function compacted(branch: readonly Entry[]): Compacted {
  let c = -1;
  for (let i = branch.length - 1; i >= 0; i--) {
    if (branch[i].type === 'compaction') {
      c = i;
      break;
    }
  }
  if (c < 0) return { compaction: null, kept: [], later: branch.slice() };
  const compaction = branch[c];
  const firstKept = compaction.firstKeptEntryId;
  let start = c;
  for (let i = 0; i < c; i++) {
    if (branch[i].id === firstKept) {
      start = i;
      break;
    }
  }
  return { compaction, kept: branch.slice(start, c), later: branch.slice(c + 1) };
}

/** The lines listing attachments of user messages in `entries`, as the summary message shows them. */
export function summarizedAttachmentLines(entries: readonly Entry[]): string[] {
  const lines: string[] = [];
  for (const e of entries) {
    const m = e.message as { role?: unknown } | undefined;
    if (e.type !== 'message' || m?.role !== 'user') continue;
    for (const a of attachments(m)) lines.push(`- ${a.name} (${a.mimeType}) at ${a.path}: ${a.about}`);
  }
  return lines;
}

/** The user text that stands for a compaction: pi's wrapper around the summary, plus the attachments it summarized away. */
export function compactionSummaryText(summary: string, summarized: readonly Entry[]): string {
  const lines = summarizedAttachmentLines(summarized);
  const list = lines.length ? '\n\nAttachments from the summarized conversation:\n' + lines.join('\n') : '';
  return COMPACTION_SUMMARY_PREFIX + summary + COMPACTION_SUMMARY_SUFFIX + list;
}

/**
 * The AI SDK messages for a branch (no system message), as pi's buildSessionContext + convertToLlm
 * build them: with a compaction, its summary first, then `kept`, then `later`; see `messages`.
 */
export function context(branch: readonly Entry[], opts: ContextOptions = {}): ModelMessage[] {
  const { compaction, kept, later } = compacted(branch);
  if (!compaction) return messages(branch, opts);
  const c = branch.indexOf(compaction);
  const summarized = branch.slice(0, c - kept.length);
  const summary = { role: 'user' as const, content: [{ type: 'text' as const, text: compactionSummaryText(String(compaction.summary ?? ''), summarized) }] };
  return [summary, ...messages([...kept, ...later], opts)];
}
