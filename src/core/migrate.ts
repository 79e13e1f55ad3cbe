// In-memory migration of v1/v2 files to v3 (§5), in two small named steps. Nothing is written back.
import type { Entry } from './types.ts';

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
 * v1 → v2: every entry gets an id and `parentId` = the previous entry's id (one linear chain);
 * a compaction's `firstKeptEntryIndex` (an index into [header, ...entries]) becomes `firstKeptEntryId`.
 */
export function migrateV1ToV2(entries: Entry[], lines: number[]): void {
  let previous: string | null = null;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const id = v1Id(lines[i]);
    entry.id = id;
    entry.parentId = previous;
    previous = id;
  }
  for (const entry of entries) {
    if (entry.type !== 'compaction' || typeof entry.firstKeptEntryIndex !== 'number') continue;
    // Index 0 is the header, so entry k sits at index k + 1; the header itself cannot be kept.
    const target = entries[entry.firstKeptEntryIndex - 1];
    if (entry.firstKeptEntryIndex >= 1 && target) entry.firstKeptEntryId = target.id;
    delete entry.firstKeptEntryIndex;
  }
}

/** v2 → v3: the message role `hookMessage` was renamed `custom`. */
export function migrateV2ToV3(entries: Entry[]): void {
  for (const entry of entries) {
    const message = entry.message as { role?: unknown } | undefined;
    if (entry.type === 'message' && message && typeof message === 'object' && message.role === 'hookMessage') {
      entry.message = { ...message, role: 'custom' };
    }
  }
}

/** Runs the steps a file of `version` needs, in place. */
export function migrate(entries: Entry[], lines: number[], version: number): void {
  if (version < 2) migrateV1ToV2(entries, lines);
  if (version < 3) migrateV2ToV3(entries);
}
