// The search index on disk, beside the session index (`search/` in the same OPFS folder):
//   search/manifest.json   for each session: its facts (with the file size it was built from) and
//                          where its words and its entry documents lie
//   search/seg-<…>.bin     segments, written once and never changed: the words of each session in
//                          it (plain text, one region, read in one go when a worker starts), then each
//                          session's entry documents (gzip of JSON, read when a query shows that session)
// A sync writes one segment for all the sessions it (re)built, so an append or a delete writes
// only that session's records (and the small manifest); an import of many writes a few segments,
// not a file per session. Records of rebuilt or deleted sessions are dead bytes until a compaction
// copies the live ones into a new segment. Everything here is a cache of the session files: a part
// that is missing, damaged or built from another size is rebuilt from them.
import { gunzipSync, gzipSync } from 'fflate';
import { once } from '../../storage/chunks.ts';
import type { Disk } from '../../storage/types.ts';
import type { EntryDoc, EntryKind, SessionMeta } from './extract.ts';

/** The folder of the search index. */
export const SEARCH_DIR = 'search';
/** The manifest's path. */
export const MANIFEST = `${SEARCH_DIR}/manifest.json`;
const VERSION = 2;

/** Where a session's records lie: its segment, and [start, end) of its words and its entries. */
export interface PartRef {
  seg: string;
  w: [number, number];
  r: [number, number];
}

/** A session in the manifest. */
export interface ManifestEntry {
  meta: SessionMeta;
  ref: PartRef;
}

/** The manifest: every indexed session by id. */
export interface Manifest {
  v: number;
  sessions: Record<string, ManifestEntry>;
}

type Row = [id: string, kind: EntryKind, ts: number, flags: number, text: string, tools?: string[] | 0, model?: string];

// Records up to this size are compressed in place (fflate), larger ones by CompressionStream.
const SMALL_RECORD = 256 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream)).arrayBuffer());
}

/** The manifest, or null when it is missing or unreadable (then everything is rebuilt). */
export async function readManifest(disk: Disk): Promise<Manifest | null> {
  try {
    const m = JSON.parse(decoder.decode(await disk.read(MANIFEST))) as Manifest;
    return m && m.v === VERSION && m.sessions && typeof m.sessions === 'object' ? m : null;
  } catch {
    return null;
  }
}

/** Writes the manifest (swapped in whole). */
export async function writeManifest(disk: Disk, m: Manifest): Promise<void> {
  await disk.writeNew(MANIFEST, once(encoder.encode(JSON.stringify(m))));
}

/** The words of each session (null for one whose segment is missing or damaged), one read per segment. */
export async function readWords(disk: Disk, entries: ManifestEntry[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  const bySeg = new Map<string, ManifestEntry[]>();
  for (const e of entries) {
    const list = bySeg.get(e.ref.seg) ?? [];
    list.push(e);
    bySeg.set(e.ref.seg, list);
  }
  for (const [seg, list] of bySeg) {
    const from = Math.min(...list.map((e) => e.ref.w[0]));
    const to = Math.max(...list.map((e) => e.ref.w[1]));
    let bytes: Uint8Array | null = null;
    try {
      bytes = await disk.read(`${SEARCH_DIR}/${seg}`, from, to);
    } catch {
      // Gone: these sessions are rebuilt.
    }
    for (const e of list) {
      const [s, t] = e.ref.w;
      const ok = bytes !== null && bytes.length >= to - from;
      // Each words record starts with the session id and a newline: a check that the bytes are its.
      const text = ok ? decoder.decode(bytes!.subarray(s - from, t - from)) : '';
      const head = `${e.meta.id}\n`;
      out.set(e.meta.id, ok && text.startsWith(head) ? text.slice(head.length) : null);
    }
  }
  return out;
}

/** A session's entry documents, or null when its record is missing or damaged. */
export async function readRows(disk: Disk, ref: PartRef, snapshots?: Map<string, Promise<Blob>>): Promise<EntryDoc[] | null> {
  try {
    let bytes: Uint8Array;
    if (snapshots) {
      // A segment never changes once written: its file's snapshot serves every later read (one
      // lookup of the file, not one a record); a segment removed since makes the read fail, as it would.
      let blob = snapshots.get(ref.seg);
      if (!blob) snapshots.set(ref.seg, (blob = disk.blob(`${SEARCH_DIR}/${ref.seg}`)));
      try {
        bytes = new Uint8Array(await (await blob).slice(ref.r[0], ref.r[1]).arrayBuffer());
      } catch (e) {
        snapshots.delete(ref.seg);
        throw e;
      }
    } else bytes = await disk.read(`${SEARCH_DIR}/${ref.seg}`, ref.r[0], ref.r[1]);
    if (bytes.length !== ref.r[1] - ref.r[0]) return null;
    // fflate in one synchronous call: a query reads a few records of tens of KB each, where a
    // DecompressionStream's chunks and hops cost more than the inflating (17 ms a record in Chromium).
    const rows = JSON.parse(decoder.decode(gunzipSync(bytes))) as Row[];
    if (!Array.isArray(rows)) return null;
    return rows.map(([id, kind, ts, flags, text, tools, model]) => ({ id, kind, ts, flags, text, ...(tools ? { tools } : {}), ...(model ? { model } : {}) }));
  } catch {
    return null;
  }
}

/** Gathers sessions' records and writes them as one segment. */
export function createSegmentWriter(disk: Disk) {
  const name = `seg-${Date.now().toString(36)}-${Math.random().toString(16).slice(2, 10)}.bin`;
  const words: Array<{ id: string; bytes: Uint8Array }> = [];
  const rows: Uint8Array[] = [];
  let bytes = 0;
  return {
    name,
    /** Bytes gathered so far. */
    size: () => bytes,
    /** Adds a session's words and entry documents. */
    async add(id: string, wordsOf: string, docs: readonly EntryDoc[]): Promise<void> {
      const w = encoder.encode(`${id}\n${wordsOf}`);
      const json = encoder.encode(
        JSON.stringify(
          docs.map((d) => {
            const row: Row = [d.id, d.kind, d.ts, d.flags, d.text];
            if (d.tools || d.model) row.push(d.tools ?? 0);
            if (d.model) row.push(d.model);
            return row;
          }),
        ),
      );
      // A small record at once (a stream costs more to set up than to run: an import of 500 small
      // sessions adds 500 of them), at fflate's fastest level (about 12 % larger than level 6 and a
      // quarter of its time, which an import pays per session); a large one through the browser's
      // own gzip. Both read the same.
      const r = json.length <= SMALL_RECORD ? gzipSync(json, { level: 1 }) : await pipe(json, new CompressionStream('gzip'));
      words.push({ id, bytes: w });
      rows.push(r);
      bytes += w.length + r.length;
    },
    /** Adds a record as it lies in another segment (a compaction copies without rebuilding). */
    addRaw(id: string, w: Uint8Array, r: Uint8Array): void {
      words.push({ id, bytes: w });
      rows.push(r);
      bytes += w.length + r.length;
    },
    /** Writes the segment; where each session's records are. */
    async close(): Promise<Map<string, PartRef>> {
      const refs = new Map<string, PartRef>();
      if (!words.length) return refs;
      let at = 0;
      const wr: Array<[number, number]> = words.map((w) => {
        const range: [number, number] = [at, at + w.bytes.length];
        at += w.bytes.length;
        return range;
      });
      words.forEach((w, i) => {
        refs.set(w.id, { seg: name, w: wr[i], r: [at, at + rows[i].length] });
        at += rows[i].length;
      });
      async function* chunks() {
        for (const w of words) yield w.bytes;
        for (const r of rows) yield r;
      }
      await disk.writeNew(`${SEARCH_DIR}/${name}`, chunks());
      return refs;
    },
  };
}

/** Reads a session's two records as they lie (for a compaction). */
export async function readRaw(disk: Disk, ref: PartRef): Promise<{ w: Uint8Array; r: Uint8Array }> {
  const path = `${SEARCH_DIR}/${ref.seg}`;
  return { w: await disk.read(path, ref.w[0], ref.w[1]), r: await disk.read(path, ref.r[0], ref.r[1]) };
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
