// A session whose file grew since its part was made, brought up to date from the appended bytes
// alone: the file's ends are checked against what was indexed (fingerprint.ts), its new lines read
// from where the last reading left off (extract.ts), and their entries written as a delta beside the
// part (part-delta.ts). Every FOLD_AFTER deltas the part and its deltas are written as one part again
// (from their records, not from the file). Anything that does not hold (no carry, other bytes where
// the old ones were, a record that cannot be read) answers null: the session is rebuilt from its file.
import type { Disk, SessionStore, SessionSummary } from '../../storage/types.ts';
import { createExtractor, type SessionMeta } from './extract.ts';
import { type Carry, FINGERPRINT } from './fingerprint.ts';
import { titleOf } from './import-batch.ts';
import { type BuiltPart, checksum, decodePart } from './part.ts';
import { buildDelta, decodeParts, foldParts } from './part-delta.ts';
import { createSegmentWriter, type Manifest, type ManifestEntry, readFacts, readRaw, readWords, recordsOf } from './segments.ts';

/** Deltas a part carries before it is folded with them. */
export const FOLD_AFTER = 16;

/** What a grown session becomes: its facts, the record to write (a delta, or the part folded with its deltas), its words before and after it. */
export interface Grown {
  meta: SessionMeta;
  carry: Carry;
  part: BuiltPart;
  folded: boolean;
  before: string;
  words: string;
}

/** Whether a session's file may have grown only (else it is rebuilt). */
export const mayHaveGrown = (e: ManifestEntry, s: SessionSummary) => e.carry?.nl === true && s.piSize === undefined && s.size > e.meta.size;

/** Brings a grown session's records up to date from its new bytes; `words`: its words as indexed. Null when it must be rebuilt. */
export async function grow(store: SessionStore, disk: Disk, e: ManifestEntry, s: SessionSummary, words: string): Promise<Grown | null> {
  const carry = e.carry;
  if (!carry || !mayHaveGrown(e, s)) return null;
  const old = e.meta.size;
  const from = Math.max(0, old - FINGERPRINT);
  const bytes = await store.readRange(s.id, from, s.size);
  if (bytes.length !== s.size - from) return null;
  const headOk = old >= FINGERPRINT ? checksum(await store.readRange(s.id, 0, FINGERPRINT)) === carry.head : checksum(bytes.subarray(0, old)) === carry.head;
  if (!headOk || checksum(bytes.subarray(0, old - from)) !== carry.tail) return null;
  // The appended lines, read as a reading of the whole file reads them (a last line without "\n" too).
  const x = createExtractor(s.id, titleOf(s), { meta: e.meta, state: carry.state });
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(old - from));
  const lines = text.split('\n');
  const last = lines.pop() ?? '';
  for (const line of lines) x.line(line);
  if (last) x.line(last);
  const { meta, docs } = x.finish(s.size);
  const end = bytes.subarray(Math.max(0, bytes.length - FINGERPRINT));
  const next: Carry = {
    state: x.state(),
    head: old >= FINGERPRINT ? carry.head : checksum(bytes.subarray(0, Math.min(FINGERPRINT, bytes.length))),
    tail: checksum(end),
    nl: end.length > 0 && end[end.length - 1] === 10,
  };
  const delta = buildDelta(words, carry.state.docs, docs);
  const grown = [words, delta.words].filter(Boolean).join(' ');
  if ((e.more?.length ?? 0) + 1 < FOLD_AFTER) return { meta, carry: next, part: delta, folded: false, before: words, words: grown };
  // Folded: the records as they lie, and the new delta, written as one part.
  const read = await readFacts(disk, e);
  if (!read) return null;
  const texts = await Promise.all(recordsOf(e).map(async (ref) => (await readRaw(disk, ref)).t));
  const merged = decodeParts(decodePart(read[0].words, read[0].facts), [...read.slice(1), { words: delta.words, facts: delta.facts }]);
  return { meta, carry: next, part: foldParts(merged, [...texts, delta.texts]), folded: true, before: words, words: grown };
}

/** Brings grown sessions up to date (`grow`), their records written as one segment and put in `manifest` (not yet written); those that must be rebuilt are left out. */
export async function growAll(store: SessionStore, disk: Disk, manifest: Manifest, sessions: readonly SessionSummary[]): Promise<Grown[]> {
  const writer = createSegmentWriter(disk);
  const made: Grown[] = [];
  for (const s of sessions) {
    const e = manifest.sessions[s.id];
    const words = (await readWords(disk, [e])).get(s.id);
    const g = typeof words === 'string' ? await grow(store, disk, e, s, words).catch(() => null) : null;
    if (!g) continue;
    writer.add(s.id, g.part);
    made.push(g);
  }
  const placed = await writer.close();
  for (const g of made) {
    const e = manifest.sessions[g.meta.id];
    const ref = placed.get(g.meta.id)!;
    manifest.sessions[g.meta.id] = g.folded
      ? { meta: g.meta, ref, carry: g.carry }
      : { meta: g.meta, ref: e.ref, more: [...(e.more ?? []), ref], carry: g.carry };
  }
  return made;
}
