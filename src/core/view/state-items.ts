// Rows that show state rather than conversation: one line that says what they hold.
import { isObject, num, str, type Loose } from './parts.ts';
import type { RenderItem } from './types.ts';

/** A state row before it gets its place in the list. */
export type StateDraft = Omit<Extract<RenderItem, { kind: 'state' }>, 'index' | 'entryId' | 'line'>;

/** Longest one-line summary of a state row. */
const SUMMARY_CHARS = 100;

/** A one-line summary of extension data: `key: value · …` for an object's fields (pretty JSON starts with a bare "{"). */
export function dataSummary(data: unknown): string {
  const scalar = (v: unknown): string =>
    v === null || typeof v !== 'object' ? (typeof v === 'string' ? v.replace(/\s+/g, ' ') : String(v)) : Array.isArray(v) ? `[${v.length}]` : '{…}';
  const line = isObject(data)
    ? Object.entries(data)
        .map(([k, v]) => `${k}: ${scalar(v)}`)
        .join(' · ') || '(empty)'
    : Array.isArray(data)
      ? `${data.length} item${data.length === 1 ? '' : 's'}`
      : scalar(data);
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line;
}

/** What an omp `@file` mention read: one line per file (its lines, an image, or why it was not read). */
export function fileMentionDraft(message: Loose): StateDraft {
  const files = Array.isArray(message.files) ? message.files.filter(isObject) : [];
  const skipped: Record<string, string> = { tooLarge: 'too large', binary: 'binary' };
  const lines = files.map((f) => {
    const path = str(f.path, '(no path)');
    const bytes = num(f.byteSize);
    if (typeof f.skippedReason === 'string')
      return `${path}: not read (${skipped[f.skippedReason] ?? f.skippedReason}${bytes !== null ? `, ${bytes.toLocaleString('en-US')} bytes` : ''})`;
    if (isObject(f.image)) return `${path}: image`;
    const count = num(f.lineCount);
    return count !== null ? `${path}: ${count.toLocaleString('en-US')} line${count === 1 ? '' : 's'}` : path;
  });
  const summary = files.map((f) => str(f.path, '(no path)')).join(', ');
  return {
    kind: 'state',
    type: `file mention${files.length === 1 ? '' : ` (${files.length} files)`}`,
    text: lines.join('\n'),
    summary: summary.length > SUMMARY_CHARS ? `${summary.slice(0, SUMMARY_CHARS - 1)}…` : summary,
  };
}
