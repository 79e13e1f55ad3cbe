// The search index in Node over the memory disk, rebuilt from the session files: when deleted,
// corrupted, of an older format, or damaged after loading, it gives the same answers; appends and
// deletes keep its segments small and leave none behind.
import { describe, expect, test } from 'vitest';
import { once } from '../../../src/storage/chunks.ts';
import { VERSION } from '../../../src/worker/search/segments.ts';
import { ids, library, open, SESSIONS, where } from './library-setup.ts';

describe('the index rebuilt from the files', () => {
  test('a deleted or corrupted index is rebuilt from the files, with progress, and gives the same answers', async () => {
    const { disk, api, plants } = await library();
    const queries = [...plants.map((p) => p.word), 'has:error', 'model:gpt', 'please look'];
    const before = await Promise.all(queries.map((q) => api.search({ query: q, limit: 50 })));
    const parts = (kind = '') => [...disk.files.keys()].filter((k) => k.startsWith(`search/${kind}`));
    // One import: the manifest and one segment.
    expect(parts().length).toBe(2);
    // A new worker over the same disk reads the parts; one that finds them gone or damaged rebuilds.
    for (const damage of ['none', 'delete', 'corrupt manifest', 'truncate', 'corrupt segments', 'delete segments'] as const) {
      for (const k of parts()) {
        const f = disk.files.get(k)!;
        if (damage === 'delete') disk.files.delete(k);
        if (damage === 'corrupt manifest' && k.endsWith('manifest.json')) f.bytes = new TextEncoder().encode('{"v":2,"sessions":{"x":{}}');
        if (damage === 'truncate') f.bytes = f.bytes.slice(0, f.bytes.length >> 1);
        if (damage === 'corrupt segments' && k.includes('/seg-')) f.bytes = f.bytes.map((b, i) => (i % 7 ? b : 0));
        if (damage === 'delete segments' && k.includes('/seg-')) disk.files.delete(k);
      }
      const next = open(disk);
      const seen: Array<{ done: number; total: number }> = [];
      await next.api.syncSearchIndex({}, { signal: new AbortController().signal, progress: (p) => seen.push(p) });
      expect(seen.at(-1)).toMatchObject({ done: SESSIONS + 4, total: SESSIONS + 4 });
      const after = await Promise.all(queries.map((q) => next.api.search({ query: q, limit: 50 })));
      expect(after, damage).toEqual(before);
    }
  });

  test('an index of an older format is rebuilt whole, with the progress bar, and its segments removed', async () => {
    const { disk, api, plants } = await library();
    const queries = [...plants.map((p) => p.word), 'has:error', 'tool:bash', '"look at"'];
    const before = await Promise.all(queries.map((q) => api.search({ query: q, limit: 50 })));
    // What an older build left: its manifest (version 2, records as it laid them out) and its segment.
    const manifest = JSON.parse(new TextDecoder().decode(disk.files.get('search/manifest.json')!.bytes));
    expect(manifest.v).toBe(VERSION);
    const old = [...disk.files.keys()].filter((k) => k.includes('/seg-'));
    for (const e of Object.values(manifest.sessions) as Array<{ ref: Record<string, unknown> }>)
      e.ref = { seg: (e.ref as { seg: string }).seg, w: [0, 1], r: [1, 2] };
    await disk.writeNew('search/manifest.json', once(new TextEncoder().encode(JSON.stringify({ ...manifest, v: VERSION - 1 }))));
    const next = open(disk);
    const seen: Array<{ done: number; total: number; label?: string }> = [];
    await next.api.syncSearchIndex({}, { signal: new AbortController().signal, progress: (p) => seen.push(p) });
    expect(seen[0]).toMatchObject({ done: 0, total: SESSIONS + 4, label: 'Building the search index' });
    expect(seen.at(-1)).toMatchObject({ done: SESSIONS + 4, total: SESSIONS + 4 });
    expect(JSON.parse(new TextDecoder().decode(disk.files.get('search/manifest.json')!.bytes)).v).toBe(VERSION);
    expect([...disk.files.keys()].filter((k) => old.includes(k))).toEqual([]);
    expect(await Promise.all(queries.map((q) => next.api.search({ query: q, limit: 50 })))).toEqual(before);
  });

  test('entry records damaged after loading are rebuilt when a query needs them', async () => {
    const { disk, plants } = await library();
    const fresh = open(disk);
    await fresh.api.syncSearchIndex({});
    for (const k of [...disk.files.keys()].filter((x) => x.includes('/seg-'))) disk.files.get(k)!.bytes = new TextEncoder().encode('garbage');
    const p = plants[12];
    expect(where(await fresh.api.search({ query: p.word }))).toEqual([`${p.session} ${p.entry}`]);
  });

  test('an append writes a small segment of its own; a deleted session takes its part and deltas with it', async () => {
    const { disk, api, spare } = await library();
    const segs = () => [...disk.files.keys()].filter((k) => k.includes('/seg-'));
    await api.syncSearchIndex({});
    const first = segs();
    expect(first.length).toBe(1);
    await api.labelEntry({ id: ids[0], entryId: 'u1', label: spare[0] });
    await api.syncSearchIndex({});
    // The label wrote one more segment holding only that session's new entry; the first one stays.
    expect(segs().length).toBe(2);
    expect(segs()).toEqual(expect.arrayContaining(first));
    expect(where(await api.search({ query: spare[0] }))).toEqual([`${ids[0]} u1`]);
    await api.deleteSession({ id: ids[0] });
    await api.syncSearchIndex({});
    expect(segs()).toEqual(first);
    expect(where(await api.search({ query: spare[0] }))).toEqual([]);
    // Deleting every session leaves no segment.
    for (const s of await api.listSessions({})) await api.deleteSession({ id: s.id });
    await api.syncSearchIndex({});
    expect(segs()).toEqual([]);
  });
});
