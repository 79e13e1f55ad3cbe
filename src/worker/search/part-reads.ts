// What a query reads of a session's part: its facts (kept in a small cache for the next keystrokes)
// and the text chunks of the entries it shows. A record found missing or damaged is reported to
// `rebuild` (which brings the index to the files again) and read once more from its new place.
import type { Disk } from '../../storage/types.ts';
import type { SessionMeta } from './extract.ts';
import type { TextsOf } from './hits.ts';
import { createLru } from './lru.ts';
import { buildPart, chunkOf, decodeChunk, decodePart, type Part } from './part.ts';
import type { SegmentFiles } from './segment-files.ts';
import { type ManifestEntry, readFacts, readTexts, recordsOf } from './segments.ts';
import { decodeParts } from './part-delta.ts';

const EMPTY = buildPart([]);
const empty = () => decodePart(EMPTY.words, EMPTY.facts);

/** Reads sessions' facts and texts through two caches (bounded in bytes and characters). */
export function createPartReads(
  disk: Disk,
  refs: ReadonlyMap<string, ManifestEntry>,
  files: SegmentFiles,
  rebuild: (id: string) => Promise<void>,
  limits: { factBytes?: number; textChars?: number } = {},
) {
  const facts = createLru<Part>(limits.factBytes ?? 24_000_000, (p) => p.size);
  const chunks = createLru<Array<[string, string]>>(limits.textChars ?? 8_000_000, (c) => c.reduce((n, [id, t]) => n + id.length + t.length + 16, 0));
  // Cache keys name the records' place, so a rebuilt session's records are never mistaken for its old ones.
  const keyOf = (e: ManifestEntry) =>
    `${e.meta.id}\n${recordsOf(e)
      .map((r) => `${r.seg}:${r.r[0]}`)
      .join(',')}`;

  const load = async (id: string): Promise<Part | null> => {
    const e = refs.get(id);
    if (!e) return null;
    const key = keyOf(e);
    const hit = facts.get(key);
    if (hit) return hit;
    const raw = await readFacts(disk, e, files);
    if (!raw) return null;
    try {
      return facts.keep(key, decodeParts(decodePart(raw[0].words, raw[0].facts), raw.slice(1)));
    } catch {
      return null;
    }
  };

  const part = async (meta: SessionMeta): Promise<Part> => {
    const first = await load(meta.id);
    if (first) return first;
    await rebuild(meta.id);
    return (await load(meta.id)) ?? empty();
  };

  // The chunks of `entries` as `p` places them (null when one cannot be read).
  const read = async (meta: SessionMeta, p: Part, entries: readonly number[]): Promise<Map<number, [string, string]> | null> => {
    const e = refs.get(meta.id);
    if (!e) return null;
    const need = new Map<number, number[]>();
    for (const x of entries) {
      const k = chunkOf(p, x);
      const list = need.get(k) ?? [];
      list.push(x);
      need.set(k, list);
    }
    const out = new Map<number, [string, string]>();
    let ok = true;
    await Promise.all(
      [...need].map(async ([k, list]) => {
        const c = p.chunks[k];
        if (!c) {
          ok = false;
          return;
        }
        const key = `${keyOf(e)}:${k}`;
        let rows = chunks.get(key);
        if (!rows) {
          const ref = recordsOf(e)[c.rec];
          const bytes = ref ? await readTexts(disk, ref, c.from, c.to, files) : null;
          const decoded = bytes && decodeChunk(bytes, c.sum);
          if (!decoded) {
            ok = false;
            return;
          }
          rows = chunks.keep(key, decoded);
        }
        for (const x of list) {
          const row = rows[x - c.first];
          if (row) out.set(x, row);
          else ok = false;
        }
      }),
    );
    return ok ? out : null;
  };

  const texts =
    (meta: SessionMeta, p: Part): TextsOf =>
    async (entries) => {
      const first = await read(meta, p, entries);
      if (first) return first;
      // Rebuilt from the same file, the session has the same entries in the same order.
      await rebuild(meta.id);
      return (await read(meta, await part(meta), entries)) ?? new Map();
    };

  return {
    part,
    texts,
    /** Forgets what is cached of a session. */
    drop(id: string) {
      facts.dropPrefix(`${id}\n`);
      chunks.dropPrefix(`${id}\n`);
    },
  };
}
