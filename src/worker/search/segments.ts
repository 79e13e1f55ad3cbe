// The search index on disk, beside the session index (`search/` in the same OPFS folder):
//   search/manifest.json   for each session: its facts (with the file size it was built from) and
//                          where its records lie, with their checks; search/manifest.log: the
//                          entries written since (manifest-log.ts)
//   search/seg-<…>.bin     segments, written once and never changed: the words of each session in
//                          it (plain text, one region, read in one go when a worker starts), then each
//                          session's facts (entries' kinds, flags, times, tools and the postings of its
//                          words, read when a query looks at that session), then its texts (compressed
//                          chunks, read for the hits a query shows); see part.ts
// A sync writes one segment for all the sessions it (re)built, so an append or a delete writes
// only that session's records (and the small manifest); an import of many writes a few segments,
// not a file per session. Records of rebuilt or deleted sessions are dead bytes until a compaction
// copies the live ones into a new segment. Everything here is a cache of the session files: a part
// that is missing, damaged or built from another size is rebuilt from them (an index of another
// version is rebuilt whole).
import type { Disk } from '../../storage/types.ts';
import type { SessionMeta } from './extract.ts';
import type { Carry } from './fingerprint.ts';
import { type BuiltPart, checksum } from './part.ts';
import type { RecordRead } from './part-delta.ts';
import { SEARCH_DIR, type SegmentFiles } from './segment-files.ts';

/** The manifest's path. */
export const MANIFEST = `${SEARCH_DIR}/manifest.json`;
/** The index format: a manifest of another version is rebuilt whole. */
export const VERSION = 5;

/** Where a session's records lie: its segment, [start, end) of its words, facts and texts, and the checks of the first two. */
export interface PartRef {
  seg: string;
  w: [number, number];
  r: [number, number];
  t: [number, number];
  c: [number, number];
}

/** A session in the manifest: its part's records, then those of the deltas appended since (part-delta.ts); `carry`: what reading lines appended to its file goes on from (grow.ts). */
export interface ManifestEntry {
  meta: SessionMeta;
  ref: PartRef;
  more?: PartRef[];
  carry?: Carry;
}

/** Whether two entries name the same records. */
export const sameRecords = (a: ManifestEntry, b: ManifestEntry) => {
  const x = recordsOf(a);
  const y = recordsOf(b);
  return x.length === y.length && x.every((r, i) => r.seg === y[i].seg && r.r[0] === y[i].r[0]);
};

/** A session's records, its part's first. */
export const recordsOf = (e: ManifestEntry): PartRef[] => (e.more?.length ? [e.ref, ...e.more] : [e.ref]);

/** The manifest: every indexed session by id. */
export interface Manifest {
  v: number;
  /** The name of the log that continues this manifest.json (manifest-log.ts). */
  log?: string;
  sessions: Record<string, ManifestEntry>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An empty manifest of this version. */
export const emptyManifest = (): Manifest => ({ v: VERSION, sessions: {} });

// A words record: the session id, a newline, its words; checked against the manifest's sum.
function wordsOf(id: string, ref: PartRef, bytes: Uint8Array | null): string | null {
  if (!bytes || checksum(bytes) !== ref.c?.[0]) return null;
  const text = decoder.decode(bytes);
  const head = `${id}\n`;
  return text.startsWith(head) ? text.slice(head.length) : null;
}

/** Words of records, in the order they came (a part's, then its deltas'), as a session's words. */
export const joinWords = (words: readonly string[]) => words.filter(Boolean).join(' ');

/** The words of each session, its records' joined (null for one with a record missing or damaged), one read per segment. */
export async function readWords(disk: Disk, entries: ManifestEntry[]): Promise<Map<string, string | null>> {
  const bySeg = new Map<string, Array<{ e: ManifestEntry; ref: PartRef; k: number }>>();
  for (const e of entries)
    recordsOf(e).forEach((ref, k) => {
      const list = bySeg.get(ref.seg) ?? [];
      list.push({ e, ref, k });
      bySeg.set(ref.seg, list);
    });
  const found = new Map<string, Array<string | null>>(entries.map((e) => [e.meta.id, []]));
  for (const [seg, list] of bySeg) {
    const from = Math.min(...list.map((x) => x.ref.w[0]));
    const to = Math.max(...list.map((x) => x.ref.w[1]));
    let bytes: Uint8Array | null = null;
    try {
      bytes = await disk.read(`${SEARCH_DIR}/${seg}`, from, to);
    } catch {
      // Gone: these sessions are rebuilt.
    }
    const ok = bytes !== null && bytes.length >= to - from;
    for (const { e, ref, k } of list) found.get(e.meta.id)![k] = ok ? wordsOf(e.meta.id, ref, bytes!.subarray(ref.w[0] - from, ref.w[1] - from)) : null;
  }
  const out = new Map<string, string | null>();
  for (const e of entries) {
    const words = found.get(e.meta.id)!;
    out.set(e.meta.id, words.length === recordsOf(e).length && words.every((w) => w !== null) ? joinWords(words as string[]) : null);
  }
  return out;
}

// A query's reads go through the segments' open files (segment-files.ts); without them, each read opens the file.
function slice(disk: Disk, seg: string, from: number, to: number, files?: SegmentFiles): Promise<Uint8Array> {
  return files ? files.read(seg, from, to) : disk.read(`${SEARCH_DIR}/${seg}`, from, to);
}

/** A session's records' words and facts as they lie (each checked), or null when one is missing or damaged. */
export async function readFacts(disk: Disk, e: ManifestEntry, files?: SegmentFiles): Promise<RecordRead[] | null> {
  const out: RecordRead[] = [];
  for (const ref of recordsOf(e)) {
    const read = await readRecord(disk, e.meta.id, ref, files);
    if (!read) return null;
    out.push(read);
  }
  return out;
}

async function readRecord(disk: Disk, id: string, ref: PartRef, files?: SegmentFiles): Promise<RecordRead | null> {
  try {
    const { w, r, c } = ref;
    // The two records are read in one go when they lie close (the words come first in a segment).
    const [wb, rb] =
      r[0] - w[1] < 256 * 1024
        ? await slice(disk, ref.seg, w[0], r[1], files).then((b) => [b.subarray(0, w[1] - w[0]), b.subarray(r[0] - w[0])])
        : await Promise.all([slice(disk, ref.seg, w[0], w[1], files), slice(disk, ref.seg, r[0], r[1], files)]);
    if (rb.length !== r[1] - r[0] || checksum(rb) !== c[1]) return null;
    const words = wordsOf(id, ref, wb);
    return words === null ? null : { words, facts: rb };
  } catch {
    return null;
  }
}

/** Bytes [from, to) of a session's texts region (one chunk), or null when they cannot be read. */
export async function readTexts(disk: Disk, ref: PartRef, from: number, to: number, files?: SegmentFiles): Promise<Uint8Array | null> {
  try {
    const b = await slice(disk, ref.seg, ref.t[0] + from, ref.t[0] + to, files);
    return b.length === to - from ? b : null;
  } catch {
    return null;
  }
}

/** Gathers sessions' records and writes them as one segment. */
export function createSegmentWriter(disk: Disk) {
  const name = `seg-${Date.now().toString(36)}-${Math.random().toString(16).slice(2, 10)}.bin`;
  const parts: Array<{ id: string; w: Uint8Array; r: Uint8Array; t: Uint8Array }> = [];
  let bytes = 0;
  const writer = {
    name,
    /** Bytes gathered so far. */
    size: () => bytes,
    /** Adds a session's part (or delta), its place given under `key`. */
    add(id: string, part: BuiltPart, key = id): void {
      writer.addRaw(key, encoder.encode(`${id}\n${part.words}`), part.facts, part.texts);
    },
    /** Adds records as they lie in another segment (a compaction copies without rebuilding), their place given under `key`. */
    addRaw(key: string, w: Uint8Array, r: Uint8Array, t: Uint8Array): void {
      parts.push({ id: key, w, r, t });
      bytes += w.length + r.length + t.length;
    },
    /** Writes the segment; where each session's records are. */
    async close(): Promise<Map<string, PartRef>> {
      const refs = new Map<string, PartRef>();
      if (!parts.length) return refs;
      const ranges = (key: 'w' | 'r' | 't', at: number) =>
        parts.map((p): [number, number] => {
          const range: [number, number] = [at, at + p[key].length];
          at += p[key].length;
          return range;
        });
      const w = ranges('w', 0);
      const r = ranges('r', w.at(-1)![1]);
      const t = ranges('t', r.at(-1)![1]);
      parts.forEach((p, i) => {
        refs.set(p.id, { seg: name, w: w[i], r: r[i], t: t[i], c: [checksum(p.w), checksum(p.r)] });
      });
      async function* chunks() {
        for (const key of ['w', 'r', 't'] as const) for (const p of parts) yield p[key];
      }
      await disk.writeNew(`${SEARCH_DIR}/${name}`, chunks());
      return refs;
    },
  };
  return writer;
}

/** Reads a record as it lies (for a compaction). */
export async function readRaw(disk: Disk, ref: PartRef): Promise<{ w: Uint8Array; r: Uint8Array; t: Uint8Array }> {
  const path = `${SEARCH_DIR}/${ref.seg}`;
  return { w: await disk.read(path, ref.w[0], ref.w[1]), r: await disk.read(path, ref.r[0], ref.r[1]), t: await disk.read(path, ref.t[0], ref.t[1]) };
}

/** The segments on disk with their sizes. */
export async function listSegments(disk: Disk): Promise<Array<{ name: string; size: number }>> {
  return (await disk.list(SEARCH_DIR)).filter((f) => f.name.startsWith('seg-')).map((f) => ({ name: f.name, size: f.size }));
}

/** Removes a segment. */
export async function removeSegment(disk: Disk, name: string): Promise<void> {
  await disk.remove(`${SEARCH_DIR}/${name}`);
}

/** Bytes the index takes on disk. */
export async function indexBytes(disk: Disk): Promise<number> {
  return (await disk.list(SEARCH_DIR)).reduce((n, f) => n + f.size, 0);
}
