// In-memory migration of v1/v2 files to v3 (§5), in small named steps. Nothing is written back.
import type { Entry } from '../schema/types.ts';

/** The version our reader and writer speak. */
export const CURRENT_SESSION_VERSION = 3;

/**
 * A v1 id derived from the record's physical line: 8 lowercase hex chars, unique within a file and
 * the same every time the file is opened (pi makes random ones, §0.1.5).
 */
export function v1Id(line: number): string {
  return line.toString(16).padStart(8, '0');
}

/**
 * v1 → v2 for one entry: its id and parentId (the previous entry's id: one linear chain); a
 * compaction's `firstKeptEntryIndex` (an index into [header, ...entries]) becomes `firstKeptEntryId`.
 * `idOfEntry(k)` is the id entry k gets.
 */
export function migrateV1Entry(entry: Entry, id: string, parentId: string | null, idOfEntry: (k: number) => string | undefined): void {
  entry.id = id;
  entry.parentId = parentId;
  if (entry.type !== 'compaction' || typeof entry.firstKeptEntryIndex !== 'number') return;
  // Index 0 is the header, so entry k sits at index k + 1; the header itself cannot be kept.
  const target = entry.firstKeptEntryIndex >= 1 ? idOfEntry(entry.firstKeptEntryIndex - 1) : undefined;
  if (target !== undefined) entry.firstKeptEntryId = target;
  delete entry.firstKeptEntryIndex;
}

/** v2 → v3 for one entry: the message role `hookMessage` was renamed `custom`. */
export function migrateV2Entry(entry: Entry): void {
  const message = entry.message as { role?: unknown } | undefined;
  if (entry.type === 'message' && message && typeof message === 'object' && message.role === 'hookMessage') {
    entry.message = { ...message, role: 'custom' };
  }
}

/** Runs the steps a file of `version` needs over all its entries (with their lines), in place. */
export function migrate(entries: Entry[], lines: number[], version: number): void {
  if (version < 2) {
    const idOfEntry = (k: number) => (Number.isInteger(k) && k < lines.length ? v1Id(lines[k]) : undefined);
    for (let i = 0; i < entries.length; i++) migrateV1Entry(entries[i], v1Id(lines[i]), i === 0 ? null : v1Id(lines[i - 1]), idOfEntry);
  }
  if (version < 3) for (const entry of entries) migrateV2Entry(entry);
}
