// The search index on disk, one part per session beside the session index (`search/` in the same
// OPFS folder), so an append or a delete rewrites or removes only that session's part:
//   search/<id>.w.json  the session's facts and distinct words (read when the worker starts)
//   search/<id>.e.json  its entry documents (read when a query shows that session's hits)
// Each part names the file size it was built from; a part that does not match the store, or does not
// parse, is rebuilt from the session's bytes. Parts are only a cache: losing them loses nothing.
import { once } from '../../storage/chunks.ts';
import type { Disk } from '../../storage/types.ts';
import type { EntryDoc, EntryKind, SessionMeta } from './extract.ts';

/** The folder of the search index. */
export const SEARCH_DIR = 'search';
const VERSION = 1;

/** A session's facts and words, as kept in memory and on disk. */
export interface WordsPart {
  meta: SessionMeta;
  /** Distinct words of its entries, space-separated. */
  words: string;
}

const wordsPath = (id: string) => `${SEARCH_DIR}/${encodeURIComponent(id)}.w.json`;
const entriesPath = (id: string) => `${SEARCH_DIR}/${encodeURIComponent(id)}.e.json`;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The session id a part's file name stands for, or null. */
export function idOfPart(name: string): string | null {
  const m = /^(.+)\.[we]\.json$/.exec(name);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

async function readJson(disk: Disk, path: string): Promise<unknown> {
  try {
    return JSON.parse(decoder.decode(await disk.read(path)));
  } catch {
    // Absent, torn or corrupted: the caller rebuilds it.
    return null;
  }
}

type Row = [id: string, kind: EntryKind, ts: number, flags: number, text: string, tools?: string[] | 0, model?: string];

/** Writes both parts of a session (entries first: a words part on disk promises its entries). */
export async function writeParts(disk: Disk, part: WordsPart, docs: readonly EntryDoc[]): Promise<void> {
  const rows: Row[] = docs.map((d) => {
    const r: Row = [d.id, d.kind, d.ts, d.flags, d.text];
    if (d.tools || d.model) r.push(d.tools ?? 0);
    if (d.model) r.push(d.model);
    return r;
  });
  await disk.writeNew(entriesPath(part.meta.id), once(encoder.encode(JSON.stringify({ v: VERSION, size: part.meta.size, rows }))));
  await disk.writeNew(wordsPath(part.meta.id), once(encoder.encode(JSON.stringify({ v: VERSION, ...part }))));
}

/** A session's words part when it was built from a file of `size` bytes, else null. */
export async function readWordsPart(disk: Disk, id: string, size: number): Promise<WordsPart | null> {
  const v = (await readJson(disk, wordsPath(id))) as (WordsPart & { v?: number }) | null;
  if (!v || v.v !== VERSION || typeof v.words !== 'string' || !v.meta || v.meta.id !== id || v.meta.size !== size) return null;
  return { meta: v.meta, words: v.words };
}

/** A session's entry documents when they were built from a file of `size` bytes, else null. */
export async function readEntriesPart(disk: Disk, id: string, size: number): Promise<EntryDoc[] | null> {
  const v = (await readJson(disk, entriesPath(id))) as { v?: number; size?: number; rows?: Row[] } | null;
  if (!v || v.v !== VERSION || v.size !== size || !Array.isArray(v.rows)) return null;
  return v.rows.map(([eid, kind, ts, flags, text, tools, model]) => ({
    id: eid,
    kind,
    ts,
    flags,
    text,
    ...(tools ? { tools } : {}),
    ...(model ? { model } : {}),
  }));
}

/** Removes a session's parts. */
export async function removeParts(disk: Disk, id: string): Promise<void> {
  await disk.remove(wordsPath(id));
  await disk.remove(entriesPath(id));
}

/** Bytes the index takes on disk. */
export async function partsBytes(disk: Disk): Promise<number> {
  return (await disk.list(SEARCH_DIR)).reduce((n, f) => n + f.size, 0);
}
