// In Chromium: the search index kept in OPFS beside the session index, by the real worker.
// A new worker reads it back without rebuilding; a deleted or corrupted index is rebuilt from the
// session files (with progress) and answers the same.
import { afterEach, describe, expect, test } from 'vitest';
import { retryBusy } from '../../../../src/storage/opfs-write.ts';
import type { SearchResults } from '../../../../src/worker/search/api.ts';
import { plantedSession, plantWords } from '../../../worker/search/planted.ts';
import { freshRoot, namesIn, removeRoot, rootDir, startWorker } from '../../helpers.ts';

const roots: string[] = [];
const workers: Array<{ stop(): void }> = [];
afterEach(async () => {
  workers.splice(0).forEach((w) => w.stop());
  for (const r of roots.splice(0)) await removeRoot(r);
});

function start(root: string) {
  const w = startWorker(root);
  workers.push(w);
  return w;
}

const where = (r: SearchResults) => r.sessions.flatMap((s) => s.hits.map((h) => `${s.id} ${h.entryId}`)).sort();

describe('the search index in OPFS', () => {
  test('kept beside the sessions, read back by a new worker, rebuilt when deleted or corrupted', async () => {
    const root = freshRoot();
    roots.push(root);
    const words = plantWords(77, 32);
    const sessions = [0, 1, 2, 3].map((i) => plantedSession(`0b5e0000-0000-7000-8000-00000000000${i}`, i, words.slice(i * 8, i * 8 + 8)));
    const plants = sessions.flatMap((s) => s.plants);
    const first = start(root);
    await first.api.importFiles({ files: sessions.map((s, i) => new File([s.text], `p${i}.jsonl`)) });
    const answers = async (api: typeof first.api) => Promise.all(plants.map(async (p) => where(await api.search({ query: p.word, typing: false }))));
    const expected = plants.map((p) => [`${p.session} ${p.entry}`]);
    expect(await answers(first.api)).toEqual(expected);
    const files = await namesIn(root, 'search');
    expect(files).toContain('manifest.json');
    expect(files.filter((n) => n.startsWith('seg-')).length).toBe(1);
    first.stop();

    // A new worker (a reload) reads the index: no session is rebuilt.
    const labels = async (api: typeof first.api) => {
      const seen: string[] = [];
      await api.syncSearchIndex({}, { onProgress: (p) => seen.push(p.label ?? '') });
      return [...new Set(seen)];
    };
    const second = start(root);
    expect(await labels(second.api)).toEqual(['Reading the search index', 'Indexed']);
    expect(await answers(second.api)).toEqual(expected);
    expect(await namesIn(root, 'search')).toEqual(files);
    second.stop();

    // Deleted: rebuilt from the files. A terminated worker's read handles are let go a moment after
    // it ends, and until then Chromium refuses the removal: tried again as the app's own writes are.
    await retryBusy(async () => (await rootDir(root)).removeEntry('search', { recursive: true }));
    const third = start(root);
    expect(await labels(third.api)).toEqual(['Building the search index', 'Indexed']);
    expect(await answers(third.api)).toEqual(expected);
    third.stop();

    // Corrupted: the same.
    const dir = await (await rootDir(root)).getDirectoryHandle('search');
    const writable = await retryBusy(async () => (await dir.getFileHandle('manifest.json')).createWritable());
    await writable.write('{"v":2,"sessions":{"nope"');
    await writable.close();
    const fourth = start(root);
    expect(await labels(fourth.api)).toEqual(['Building the search index', 'Indexed']);
    expect(await answers(fourth.api)).toEqual(expected);
  });

  test('two workers read the same segments at once; one rebuilding the index removes them while the other is typing', async () => {
    const root = freshRoot();
    roots.push(root);
    const words = plantWords(91, 16);
    const sessions = [0, 1].map((i) => plantedSession(`0b5e0000-0000-7000-8000-00000000001${i}`, i, words.slice(i * 8, i * 8 + 8)));
    const p = sessions[1].plants[2];
    const expected = [`${p.session} ${p.entry}`];
    const typing = start(root);
    await typing.api.importFiles({ files: sessions.map((s, i) => new File([s.text], `q${i}.jsonl`)) });
    const old = (await namesIn(root, 'search')).filter((n) => n.startsWith('seg-'));
    // Both read the segments (each keeps them open between its keystrokes).
    const other = start(root);
    expect(where(await typing.api.search({ query: p.word, typing: false }))).toEqual(expected);
    expect(where(await other.api.search({ query: p.word, typing: false }))).toEqual(expected);
    // The other finds the index gone and rebuilds it, removing the old segment; this one goes on typing.
    await (await (await rootDir(root)).getDirectoryHandle('search')).removeEntry('manifest.json');
    const rebuilt = other.api.syncSearchIndex({});
    const next = await typing.api.search({ query: p.word, typing: false });
    await rebuilt;
    expect(where(next)).toEqual(expected);
    expect(where(await other.api.search({ query: p.word, typing: false }))).toEqual(expected);
    const now = (await namesIn(root, 'search')).filter((n) => n.startsWith('seg-'));
    expect(now.filter((n) => old.includes(n))).toEqual([]);
    expect(now.length).toBe(1);
  });
});
