// A linked folder's first sync in Chromium over a real FileSystemDirectoryHandle (an OPFS folder:
// the interface a picked folder has, which the browser cannot be driven to pick here): each file is
// read through the File snapshot its walk took; a file whose snapshot no longer reads (removed and
// written anew after the walk) is looked up again, and one appended to after the walk is whole
// after the next sync.
import { afterEach, expect, test } from 'vitest';
import type { FolderDisk } from '../../../src/storage/folder.ts';
import { createFsaDisk } from '../../../src/storage/fsa-disk.ts';
import { createMemoryDisk } from '../../../src/storage/memory-disk.ts';
import { createStore } from '../../../src/storage/store.ts';
import { syncFolder } from '../../../src/worker/linked/sync.ts';
import { freshRoot, removeRoot, rootDir, sessionText } from '../helpers.ts';

const roots: string[] = [];
afterEach(async () => {
  for (const r of roots.splice(0)) await removeRoot(r);
});

const name = (id: string) => `2026-01-02T03-04-05-678Z_${id}.jsonl`;

test('a linked sync reads files through the snapshots its walk took; one the agent writes to after the walk is whole after the next sync', async () => {
  const root = freshRoot();
  roots.push(root);
  const top = await rootDir(root);
  const project = await top.getDirectoryHandle('--home-u-proj--', { create: true });
  const write = async (file: string, text: string, keep = false) => {
    const handle = await project.getFileHandle(file, { create: true });
    const w = await handle.createWritable({ keepExistingData: keep });
    if (keep) await w.seek((await handle.getFile()).size);
    await w.write(text);
    await w.close();
  };
  const grows = sessionText('grows', 1);
  const more = sessionText('grows', 3).slice(grows.length);
  const stays = sessionText('stays', 2);
  await write(name('grows'), grows);
  await write(name('stays'), stays);
  // And one it removes and writes anew, longer: the snapshot of the removed file no longer reads.
  const again = sessionText('again', 1);
  const againMore = sessionText('again', 2).slice(again.length);
  await write(name('again'), again);

  const real = createFsaDisk(top);
  let appended = false;
  const looked: string[] = [];
  const folder: FolderDisk = {
    ...real,
    async *walk(signal) {
      yield* real.walk(signal);
      // The agent appends to one file once the walk has seen it, before the first sync reads it.
      if (!appended) {
        await write(name('grows'), more, true);
        await project.removeEntry(name('again'));
        await write(name('again'), again + againMore);
      }
      appended = true;
    },
    blob(path) {
      looked.push(path);
      return real.blob(path);
    },
  };
  const store = createStore(createMemoryDisk(), { flushDelay: 0 });
  const text = async (id: string) => new TextDecoder().decode(await store.readBytes(id));
  const first = await syncFolder(folder, {}, { store });
  expect(first.report.items.map((i) => [i.id, i.outcome]).sort()).toEqual([
    ['again', 'added'],
    ['grows', 'added'],
    ['stays', 'added'],
  ]);
  expect(await text('stays')).toBe(stays);
  expect(await text('again')).toBe(again + againMore);
  // The file written to is stored as the walk saw it (an OPFS snapshot reads so), or, where the
  // browser refuses a snapshot of a file changed since (a picked folder's), looked up again and
  // stored as it is now. No file the agent left alone is looked up again.
  const stored = await text('grows');
  const lookedAgain = `--home-u-proj--/${name('again')}`;
  expect(looked.sort()).toEqual(stored === grows ? [lookedAgain] : [lookedAgain, `--home-u-proj--/${name('grows')}`].sort());
  expect([grows, grows + more]).toContain(stored);
  expect(first.state[`--home-u-proj--/${name('grows')}`].size).toBe(new TextEncoder().encode(stored).length);
  // The next sync brings the session to the whole file: nothing the agent wrote is lost.
  const second = await syncFolder(folder, first.state, { store });
  expect(await text('grows')).toBe(grows + more);
  // (The file written anew is read again too: its time is not the one the first walk saw.)
  expect(second.report.items.map((i) => [i.id, i.outcome]).sort()).toEqual([
    ['again', 'unchanged'],
    ['grows', stored === grows ? 'updated' : 'unchanged'],
  ]);
});
