// The search index in Node over the memory disk: every planted word is found exactly where it was
// planted and nowhere else; appends, labels, renames, deletes and variants change the answers; the
// filters. (Rebuilds from the files: index-rebuild.test.ts.)
import { describe, expect, test, vi } from 'vitest';
import { createMemoryDisk } from '../../../src/storage/memory-disk.ts';
import { createStore } from '../../../src/storage/store.ts';
import { createApi } from '../../../src/worker/api.ts';
import { LOCK } from '../../../src/worker/search/import-batch.ts';
import { VERSION } from '../../../src/worker/search/segments.ts';
import { withLock } from '../../../src/storage/locks.ts';
import { editDistance } from '../../../src/worker/search/tokens.ts';
import { once } from '../../../src/storage/chunks.ts';
import { file, ids, library, open, where } from './library-setup.ts';
import { noiseSessions, plantedSession, plantWords } from './planted.ts';

describe('planted words', () => {
  test('each is found exactly where it was planted, whole, as a prefix, and with a typo', async () => {
    const { api, plants } = await library();
    for (let i = 0; i < plants.length; i++)
      for (let j = i + 1; j < plants.length; j++) expect(editDistance(plants[i].word, plants[j].word, 4)).toBeGreaterThan(4);
    expect(new Set(plants.map((p) => p.place)).size).toBe(8);
    for (const p of plants) {
      const at = `${p.session} ${p.entry}`;
      expect(where(await api.search({ query: p.word, typing: false })), `${p.place}: ${p.word}`).toEqual([at]);
      expect(where(await api.search({ query: p.word.slice(0, 6) })), `prefix of ${p.word}`).toEqual([at]);
      const typo = p.word.slice(0, 4) + (p.word[4] === 'x' ? 'y' : 'x') + p.word.slice(5);
      expect(where(await api.search({ query: typo, typing: false })), `typo of ${p.word}`).toEqual([at]);
      // Upper case, and the word as part of a path or sentence with punctuation.
      expect(where(await api.search({ query: `${p.word.toUpperCase()}.`, typing: false }))).toEqual([at]);
    }
  });

  test('all words must match; "exact phrases" must stand in one entry, in order', async () => {
    const { api, plants } = await library();
    const [user, assistant] = plants;
    // Two words of one session in two entries: the session matches; each entry holds one word.
    const both = await api.search({ query: `${user.word} ${assistant.word}`, typing: false });
    expect(both.sessions.map((s) => s.id)).toEqual([user.session]);
    expect(await api.search({ query: `${user.word} ${plants[8].word}`, typing: false })).toMatchObject({ sessions: [], total: 0 });
    expect(where(await api.search({ query: `"look at ${user.word}"` }))).toEqual([`${user.session} u1`]);
    expect((await api.search({ query: `"${user.word} look at"` })).sessions).toEqual([]);
    // A snippet marks the phrase.
    const r = await api.search({ query: `"look at ${user.word}"` });
    expect(r.sessions[0].hits[0].parts).toEqual([{ text: 'Please ' }, { text: `look at ${user.word}`, mark: true }, { text: ' today' }]);
  });

  test('filters: project, model, tool, role, dates, has:error', async () => {
    const { api, plants } = await library();
    const thought = plants.filter((p) => p.place === 'thinking');
    expect(where(await api.search({ query: `${thought[2].word} project:project2` }))).toEqual([`${ids[2]} a1`]);
    expect(where(await api.search({ query: `${thought[2].word} project:project3` }))).toEqual([]);
    // Sessions with odd numbers are on Claude and their tool output is an error.
    expect((await api.search({ query: 'model:claude has:error', limit: 50 })).sessions.map((s) => s.id).sort()).toEqual([ids[1], ids[3], ids[5]]);
    expect(where(await api.search({ query: 'has:error project:project3' }))).toEqual([`${ids[3]} t1`]);
    const outputs = plants.filter((p) => p.place === 'tool output');
    expect(where(await api.search({ query: `${outputs[0].word} tool:read role:tool` }))).toEqual([`${ids[0]} t1`]);
    expect(where(await api.search({ query: `${outputs[0].word} role:user` }))).toEqual([]);
    expect(where(await api.search({ query: 'has:compaction project:project4' }))).toEqual([`${ids[4]} c1`]);
    // Session i was written on 2026-02-(1+i).
    const dated = await api.search({ query: 'after:2026-02-03 before:2026-02-05 project:project', limit: 50 });
    expect(dated.sessions.map((s) => s.id).sort()).toEqual([ids[2], ids[3]]);
    expect((await api.search({ query: 'has:nonsense' })).unknown).toEqual(['has:nonsense']);
  });

  test('by date: newest session first; by relevance: a title match first', async () => {
    const { api } = await library();
    const r = await api.search({ query: 'please', sort: 'date', limit: 50, typing: false });
    expect(r.sessions.map((s) => s.id)).toEqual([...ids].reverse());
    await api.renameSession({ id: ids[1], title: 'Please read me' });
    const best = await api.search({ query: 'please', limit: 50, typing: false });
    expect(best.sessions[0].id).toBe(ids[1]);
    expect(best.sessions[0].titleParts).toEqual([{ text: 'Please', mark: true }, { text: ' read me' }]);
  });
});

describe('the index follows the library', () => {
  test("another agent's file is indexed at import from its conversion: the next search reads neither it nor its conversion again", async () => {
    const { readFileSync } = await import('node:fs');
    const bytes = readFileSync(new URL('../../../fixtures/other-agents/codex/Fegor-Basic-Rootkit-v0.40.0.jsonl', import.meta.url));
    const disk = createMemoryDisk();
    const store = createStore(disk, { flushDelay: 0 });
    const api = createApi({ store, now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => '0000beef', searchDisk: disk });
    await api.importFiles({ files: [new File([bytes], 'rollout.jsonl')] });
    let reads = 0;
    for (const name of ['readFile', 'readBytes', 'readConversion'] as const) {
      const original = (store[name] as (id: string) => Promise<unknown>).bind(store);
      (store as unknown as Record<string, unknown>)[name] = (id: string) => {
        reads++;
        return original(id);
      };
    }
    const found = await api.search({ query: 'rootkit', typing: false });
    expect(found.sessions.length).toBe(1);
    expect(reads).toBe(0);
  });

  test("an import makes each new session's part from the bytes it writes: no file is read again, one segment per import", async () => {
    const words = plantWords(12, 8);
    const s = plantedSession(ids[0], 0, words);
    const disk = createMemoryDisk();
    const store = createStore(disk, { flushDelay: 0 });
    let reads = 0;
    const readFile = store.readFile.bind(store);
    store.readFile = (id) => {
      reads++;
      return readFile(id);
    };
    const api = createApi({ store, now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => '0000beef', searchDisk: disk });
    const noise = noiseSessions(3);
    await api.importFiles({ files: [file('planted.jsonl', s.text), ...noise.map((n) => file(n.name, n.text))] });
    // Written by the import itself: the manifest lists all four, in one segment.
    const manifest = JSON.parse(new TextDecoder().decode(disk.files.get('search/manifest.json')!.bytes));
    expect(Object.keys(manifest.sessions).length).toBe(4);
    expect([...disk.files.keys()].filter((k) => k.includes('/seg-')).length).toBe(1);
    for (const p of s.plants) expect(where(await api.search({ query: p.word, typing: false }))).toEqual([`${p.session} ${p.entry}`]);
    expect(reads).toBe(0);
    // A worker that leaves indexing to the sync (the bench's baseline) builds the same answers from the files.
    const later = createMemoryDisk();
    const store2 = createStore(later, { flushDelay: 0 });
    const api2 = createApi({
      store: store2,
      now: () => new Date('2026-03-04T05:06:07.000Z'),
      randomId: () => '0000beef',
      searchDisk: later,
      indexAtImport: false,
    });
    await api2.importFiles({ files: [file('planted.jsonl', s.text), ...noise.map((n) => file(n.name, n.text))] });
    expect(later.files.has('search/manifest.json')).toBe(false);
    for (const q of [...s.plants.map((p) => p.word), 'please look', 'has:error'])
      expect(await api2.search({ query: q, limit: 50 }), q).toEqual(await api.search({ query: q, limit: 50 }));
  });

  test('an append (a label, a rename, new entries) makes new words findable; a delete removes them', async () => {
    const { api, plants, spare } = await library();
    const [label, title, entry] = spare;
    await api.labelEntry({ id: ids[0], entryId: 'u1', label: `checkpoint ${label}` });
    expect(where(await api.search({ query: label }))).toEqual([`${ids[0]} u1`]);
    await api.renameSession({ id: ids[1], title: `Renamed ${title}` });
    const renamed = await api.search({ query: title });
    expect(renamed.sessions.map((s) => [s.id, s.title])).toEqual([[ids[1], `Renamed ${title}`]]);
    await api.appendEntries({ id: ids[2], entries: [{ type: 'custom_message', customType: 'rho.notice', content: `late ${entry}`, display: true }] });
    expect((await api.search({ query: entry })).sessions.map((s) => s.id)).toEqual([ids[2]]);
    await api.deleteSession({ id: ids[0] });
    for (const p of plants.filter((x) => x.session === ids[0])) expect(where(await api.search({ query: p.word }))).toEqual([]);
    expect(where(await api.search({ query: label }))).toEqual([]);
    // Other sessions are still found.
    expect(where(await api.search({ query: plants[8].word }))).toEqual([`${ids[1]} u1`]);
  });

  test('another worker rebuilding the index is not held up by the segments this one keeps open while typing; this one then follows it', async () => {
    const { disk, api, plants } = await library();
    // Timers stand still from here: no pause in the typing closes the segments, only what this worker does next.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const p = plants[3];
      expect(where(await api.search({ query: p.word, typing: false }))).toEqual([`${p.session} ${p.entry}`]);
      const old = [...disk.files.keys()].filter((k) => k.includes('/seg-'));
      // Kept open between keystrokes.
      expect(old.every((k) => disk.readers.has(k))).toBe(true);
      // Another worker finds an index of an older format: it rebuilds it whole, under the index's lock,
      // and removes the old segments (which waits while this worker has them open).
      const manifest = JSON.parse(new TextDecoder().decode(disk.files.get('search/manifest.json')!.bytes));
      await disk.writeNew('search/manifest.json', once(new TextEncoder().encode(JSON.stringify({ ...manifest, v: VERSION - 1 }))));
      const rebuilt = open(disk).api.syncSearchIndex({});
      // This worker's next keystroke sees the index changed: it lets go of its segments before it waits for the lock.
      const next = await api.search({ query: p.word, typing: false });
      await rebuilt;
      expect(where(next)).toEqual([`${p.session} ${p.entry}`]);
      expect([...disk.files.keys()].filter((k) => old.includes(k))).toEqual([]);
      expect([...disk.readers.keys()].filter((k) => old.includes(k))).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  test("a keystroke with nothing changed answers without the index's lock; another worker's change is followed by the next", async () => {
    const { disk, api, plants, spare } = await library();
    const p = plants[5];
    const found = [`${p.session} ${p.entry}`];
    expect(where(await api.search({ query: p.word, typing: false }))).toEqual(found);
    // Another tab holds the lock (its own long indexing): this worker's index is as the files say, so it answers.
    let release: () => void = () => undefined;
    const held = withLock(
      LOCK,
      () =>
        new Promise<void>((r) => {
          release = r;
        }),
    );
    expect(where(await api.search({ query: p.word, typing: false }))).toEqual(found);
    release();
    await held;
    // Another worker labels an entry: the next keystroke here indexes it.
    const other = open(disk);
    await other.api.labelEntry({ id: ids[0], entryId: 'u1', label: `checkpoint ${spare[0]}` });
    await other.store.flush();
    expect(where(await api.search({ query: spare[0], typing: false }))).toEqual([`${ids[0]} u1`]);
  });

  test('a variant is found as its own session', async () => {
    const { api, plants, spare } = await library();
    const original = plantedSession(
      ids[3],
      3,
      plants.filter((p) => p.session === ids[3]).map((p) => p.word),
    ).text;
    // The same header, a different last entry: stored beside it as a variant.
    const diverged = original.replace(/We worked on \w+ so far/, `We worked on ${spare[3]} instead`);
    const report = await api.importFiles({ files: [file('variant.jsonl', diverged)] });
    const variant = report.items[0].id!;
    expect(report.items[0].outcome).toBe('variant');
    expect((await api.search({ query: spare[3] })).sessions.map((s) => s.id)).toEqual([variant]);
    const shared = plants.find((p) => p.session === ids[3] && p.place === 'user text')!;
    expect((await api.search({ query: shared.word })).sessions.map((s) => s.id).sort()).toEqual([ids[3], variant].sort());
  });
});

describe('as the search box asks', () => {
  test('a query cancelled by the next keystroke gives no answer: it rejects as cancelled', async () => {
    const { api, plants } = await library();
    const c = new AbortController();
    const stale = api.search({ query: plants[0].word }, { signal: c.signal, progress: () => undefined });
    c.abort();
    await expect(stale).rejects.toMatchObject({ name: 'AbortError' });
    // The next keystroke's query answers as if the first had never been asked.
    const fresh = await api.search({ query: plants[1].word, typing: false }, { signal: new AbortController().signal, progress: () => undefined });
    expect(where(fresh)).toEqual([`${plants[1].session} ${plants[1].entry}`]);
  });

  test('the first screen, then the rest of the page, give the page asked in one go', async () => {
    const { api } = await library();
    for (const sort of ['relevance', 'date'] as const) {
      for (const query of ['question', 'the', 'role:user']) {
        const page = await api.search({ query, sort, limit: 8 + 12 });
        const first = await api.search({ query, sort, limit: 8 });
        const rest = first.more ? await api.search({ query, sort, limit: 12, offset: first.next, shown: first.sessions.length }) : null;
        const joined = [...first.sessions, ...(rest?.sessions ?? [])];
        expect(
          joined.map((s) => s.id),
          `${query} by ${sort}`,
        ).toEqual(page.sessions.map((s) => s.id));
        expect(joined).toEqual(page.sessions);
        expect((rest ?? first).more).toBe(page.more);
      }
    }
  });
});
