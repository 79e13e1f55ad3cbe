// Lines appended to a session are indexed from the appended bytes alone (a delta beside the session's
// part), and every query answers exactly as an index built from scratch over the grown files does
// (a new library on its own disk importing them): after one append, after many (past the point where
// the part and its deltas are folded into one), after a crash between the delta's segment and the
// manifest, after a replaced file, after a compaction that moves the part and its deltas.
import { describe, expect, test } from 'vitest';
import { FOLD_AFTER } from '../../../src/worker/search/grow.ts';
import { applyManifestChanges, MANIFEST_LOG, readManifestLog, writeManifest } from '../../../src/worker/search/manifest-log.ts';
import { createSegmentWriter, MANIFEST, type Manifest, readRaw } from '../../../src/worker/search/segments.ts';
import { tidySegments } from '../../../src/worker/search/segments-tidy.ts';
import { createRng } from '../../gen/prng.ts';
import { generateSessionText } from '../../gen/session.ts';
import { noiseSessions, openLibrary } from './planted.ts';

const enc = new TextEncoder();

const open = openLibrary;

// The growing session: a generated one, cut in lines; `base` of them stored first, the rest appended in steps.
const grown = generateSessionText({ seed: 77, targetBytes: 120 * 1024, flavor: 'pi' });
const lines = grown.split('\n').filter(Boolean);
const noise = noiseSessions(2, 30);
const file = (name: string, text: string) => new File([text], name);
const textOf = (n: number) => lines.slice(0, n).join('\n') + '\n';

// Queries over words of the whole file (some only in the appended lines), as typed and with filters.
function queries(): string[] {
  const rng = createRng(5);
  const all = [...new Set(grown.toLowerCase().match(/[a-z]{4,12}/g))];
  const late = [
    ...new Set(
      lines
        .slice(Math.floor(lines.length / 2))
        .join('\n')
        .toLowerCase()
        .match(/[a-z]{4,12}/g),
    ),
  ].filter((w) => !textOf(8).toLowerCase().includes(w));
  const pick = (xs: string[]) => xs[rng.int(0, xs.length - 1)];
  const out: string[] = [];
  for (let i = 0; i < 12; i++) out.push(pick(all), pick(late), `${pick(all).slice(0, 4)}`, `${pick(late)} ${pick(all)}`);
  out.push(`${pick(late)} role:user`, `${pick(all)} role:tool`, 'tool:bash', 'has:error', 'has:compaction', `${pick(all)} role:assistant has:error`);
  const phrase = /"text":"([A-Za-z ]{12,40})/.exec(lines.at(-5) ?? '')?.[1];
  if (phrase) out.push(`"${phrase.trim().split(' ').slice(0, 3).join(' ')}"`);
  return out;
}
const QUERIES = queries();

type Api = ReturnType<typeof open>['api'];
async function answers(api: Api) {
  const out = [];
  for (const query of QUERIES)
    out.push(await api.search({ query, limit: 50, perSession: 50 }), await api.search({ query, sort: 'date', typing: false, limit: 50, perSession: 50 }));
  return out;
}

// What an index built from scratch answers for the library holding the session's first `n` lines (or `text`).
async function fromScratch(n: number, text = textOf(n)) {
  const lib = open();
  const report = await lib.api.importFiles({ files: [file('grown.jsonl', text), ...noise.map((x) => file(x.name, x.text))] });
  expect(report.items.map((x) => x.outcome)).toEqual(['added', 'added', 'added']);
  return answers(lib.api);
}

async function library(n: number) {
  const lib = open();
  const report = await lib.api.importFiles({ files: [file('grown.jsonl', textOf(n)), ...noise.map((x) => file(x.name, x.text))] });
  const id = report.items[0].id!;
  await lib.api.syncSearchIndex({});
  // manifest.json with the entries its log appended since.
  const manifest = () => {
    const m = JSON.parse(new TextDecoder().decode(lib.disk.files.get(MANIFEST)!.bytes)) as Manifest;
    const log = lib.disk.files.get(MANIFEST_LOG)?.bytes;
    if (log && m.log) applyManifestChanges(m, readManifestLog(log, 0, m.log).changes);
    return m;
  };
  const segs = () => [...lib.disk.files.keys()].filter((k) => k.includes('/seg-'));
  const append = (from: number, to: number) => lib.store.appendRaw(id, enc.encode(lines.slice(from, to).join('\n') + '\n'));
  return { ...lib, id, manifest, segs, append };
}

describe('appended lines are indexed from their bytes alone', () => {
  test('one append writes a delta holding only the new entries; every answer is a fresh index’s', async () => {
    const half = Math.floor(lines.length / 2);
    const lib = await library(half);
    const before = lib.segs();
    const written: number[] = [];
    const writeNew = lib.disk.writeNew.bind(lib.disk);
    lib.disk.writeNew = async (path, chunks, signal) => {
      const n = await writeNew(path, chunks, signal);
      if (path.includes('/seg-')) written.push(n);
      return n;
    };
    await lib.append(half, half + 3);
    await lib.api.syncSearchIndex({});
    const entry = lib.manifest().sessions[lib.id];
    expect(entry.more?.length).toBe(1);
    expect(lib.segs()).toEqual(expect.arrayContaining(before));
    // The delta's segment is about the three lines' size, far below the session's part.
    const part = entry.ref.t[1] - entry.ref.w[0];
    expect(written.length).toBe(1);
    expect(written[0]).toBeLessThan(part / 4);
    expect(await answers(lib.api)).toEqual(await fromScratch(half + 3));
  });

  test('many appends, past a fold of the part and its deltas, answer as a fresh index', async () => {
    const start = 6;
    const lib = await library(start);
    const step = Math.max(1, Math.floor((lines.length - start) / (FOLD_AFTER + 3)));
    let at = start;
    const deltas: number[] = [];
    while (at < lines.length) {
      const to = Math.min(lines.length, at + step);
      await lib.append(at, to);
      at = to;
      await lib.api.syncSearchIndex({});
      deltas.push(lib.manifest().sessions[lib.id].more?.length ?? 0);
    }
    // Deltas pile up to the fold, then start again.
    expect(deltas.slice(0, FOLD_AFTER - 1)).toEqual(Array.from({ length: FOLD_AFTER - 1 }, (_, i) => i + 1));
    expect(deltas[FOLD_AFTER - 1]).toBe(0);
    expect(await answers(lib.api)).toEqual(await fromScratch(lines.length));
    // A worker started afresh reads the part and deltas from the disk and answers the same.
    expect(await answers(open(lib.disk).api)).toEqual(await fromScratch(lines.length));
  });

  test('a crash between the delta and the manifest loses nothing and duplicates nothing', async () => {
    const half = Math.floor(lines.length / 2);
    const lib = await library(half);
    await lib.append(half, half + 4);
    const writeNew = lib.disk.writeNew.bind(lib.disk);
    const appendTo = lib.disk.append.bind(lib.disk);
    lib.disk.writeNew = async (path, chunks, signal) => {
      if (path === MANIFEST || path === MANIFEST_LOG) throw new Error('the tab closed');
      return writeNew(path, chunks, signal);
    };
    lib.disk.append = async (path, bytes, signal) => {
      if (path === MANIFEST_LOG) throw new Error('the tab closed');
      return appendTo(path, bytes, signal);
    };
    await expect(lib.api.syncSearchIndex({})).rejects.toThrow('the tab closed');
    // The delta's segment was written; the manifest still names the part alone.
    expect(lib.manifest().sessions[lib.id].more).toBeUndefined();
    lib.disk.writeNew = writeNew;
    lib.disk.append = appendTo;
    const want = await fromScratch(half + 4);
    // A worker started afresh, and the one that failed, each answer as a fresh index.
    const next = open(lib.disk);
    expect(await answers(next.api)).toEqual(want);
    expect(lib.manifest().sessions[lib.id].more?.length).toBe(1);
    expect(await answers(lib.api)).toEqual(want);
    expect(lib.manifest().sessions[lib.id].more?.length).toBe(1);
    // The segment the crash left unnamed is gone.
    const named = new Set(Object.values(lib.manifest().sessions).flatMap((e) => [e.ref, ...(e.more ?? [])].map((r) => `search/${r.seg}`)));
    expect(lib.segs().sort()).toEqual([...named].sort());
  });

  test('a file replaced by a longer one with other bytes is indexed again whole', async () => {
    const half = Math.floor(lines.length / 2);
    const lib = await library(half);
    // The same session with its first user message reworded, and more lines after.
    const at = lines.findIndex((l) => l.includes('"role":"user"'));
    const changed = lines.map((l, i) => (i === at ? l.replace('"text":"', '"text":"zebrafinch quokka ') : l));
    expect(changed[at]).not.toBe(lines[at]);
    const text = changed.slice(0, half + 2).join('\n') + '\n';
    await lib.store.replace(
      lib.id,
      (async function* () {
        yield enc.encode(text);
      })(),
    );
    await lib.api.syncSearchIndex({});
    expect(lib.manifest().sessions[lib.id].more).toBeUndefined();
    expect(await answers(lib.api)).toEqual(await fromScratch(0, text));
    expect((await lib.api.search({ query: 'zebrafinch' })).sessions.map((s) => s.id)).toEqual([lib.id]);
  });

  test('a compaction moves a part and its deltas together', async () => {
    const half = Math.floor(lines.length / 2);
    const lib = await library(half);
    await lib.append(half, half + 3);
    await lib.api.syncSearchIndex({});
    // The session's part copied into a segment that is mostly dead bytes, and the manifest pointed at it.
    const manifest = lib.manifest();
    const e = manifest.sessions[lib.id];
    const raw = await readRaw(lib.disk, e.ref);
    const writer = createSegmentWriter(lib.disk);
    writer.addRaw('dead', new Uint8Array(3 << 20), new Uint8Array(0), new Uint8Array(0));
    writer.addRaw(lib.id, raw.w, raw.r, raw.t);
    e.ref = (await writer.close()).get(lib.id)!;
    await writeManifest(lib.disk, manifest);
    const moved: string[] = [];
    await tidySegments(lib.disk, manifest, {
      moved: (id) => moved.push(id),
      release: () => undefined,
      write: async (m) => void (await writeManifest(lib.disk, m)),
    });
    expect(moved).toContain(lib.id);
    const after = lib.manifest().sessions[lib.id];
    expect(after.more?.length).toBe(1);
    expect(new Set([after.ref.seg, after.more![0].seg]).size).toBe(1);
    expect(lib.segs()).toEqual([`search/${after.ref.seg}`]);
    expect(await answers(open(lib.disk).api)).toEqual(await fromScratch(half + 3));
  });
});
