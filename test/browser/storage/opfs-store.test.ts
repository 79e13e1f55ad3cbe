import { afterEach, describe, expect, onTestFinished, test } from 'vitest';
import { cdp } from 'vitest/browser';
import { openWorkerStorage } from '../../../src/worker/library/open-store.ts';
import { freshRoot, namesIn, removeRoot, rootDir, sessionText, startWorker, textOf } from '../helpers.ts';

const roots: string[] = [];
const workers: Array<{ stop(): void }> = [];
function open() {
  const root = freshRoot();
  roots.push(root);
  const w = startWorker(root);
  workers.push(w);
  return { root, ...w };
}
afterEach(async () => {
  workers.splice(0).forEach((w) => w.stop());
  for (const r of roots.splice(0)) await removeRoot(r);
});

describe('the OPFS store in a real worker', () => {
  test('import, list, export gives back the imported bytes exactly; storage info says OPFS', async () => {
    const { api, root } = open();
    // Bytes a text round trip could change: multi-byte UTF-8, U+2028, a raw CR, no final newline (a torn line: 1 problem).
    const tricky = sessionText('s1') + '{"type":"custom","id":"c1","parentId":"e0000003","timestamp":"t","customType":"x","data":"\u2028 ✓ \r"}';
    const report = await api.importFiles({ files: [new File([tricky], 'a.jsonl')] });
    expect(report.items).toEqual([{ name: 'a.jsonl', outcome: 'added', id: 's1', problems: 1, line: 6, reason: expect.stringContaining('incomplete') }]);
    const list = await api.listSessions({});
    expect(list.map((s) => s.id)).toEqual(['s1']);
    expect(list[0]).toMatchObject({ entryCount: 4, size: new TextEncoder().encode(tricky).length });
    const exported = await api.exportSession({ id: 's1' });
    expect(exported.name).toBe('2026-01-02T03-04-05-678Z_s1.jsonl');
    expect(new Uint8Array(await exported.blob.arrayBuffer())).toEqual(new TextEncoder().encode(tricky));
    expect(await api.storageInfo({})).toMatchObject({ opfs: true });
    expect(await namesIn(root, 'sessions')).toEqual(['s1.jsonl']);
    expect(await namesIn(root, 'tmp')).toEqual([]);
  });

  test('sessions survive a restart of the worker (reload persistence)', async () => {
    const first = open();
    await first.api.importFiles({ files: [new File([sessionText('keep', 3)], 'k.jsonl')] });
    await first.api.renameSession({ id: 'keep', title: 'Kept' });
    const before = await textOf((await first.api.exportSession({ id: 'keep' })).blob);
    first.stop();
    const again = startWorker(first.root);
    workers.push(again);
    const list = await again.api.listSessions({});
    expect(list.map((s) => [s.id, s.title])).toEqual([['keep', 'Kept']]);
    expect(await textOf((await again.api.exportSession({ id: 'keep' })).blob)).toBe(before);
  });

  test('deleting or corrupting index.json loses nothing: the next worker lists everything again', async () => {
    const first = open();
    await first.api.importFiles({ files: [new File([sessionText('a')], 'a.jsonl'), new File([sessionText('b', 4)], 'b.jsonl')] });
    const listed = await first.api.listSessions({});
    first.stop();
    const dir = await rootDir(first.root);
    await dir.removeEntry('index.json');
    let w = startWorker(first.root);
    workers.push(w);
    const rebuilt = await w.api.listSessions({});
    expect(rebuilt.map((s) => [s.id, s.entryCount, s.size]).sort()).toEqual(listed.map((s) => [s.id, s.entryCount, s.size]).sort());
    w.stop();
    const handle = await dir.getFileHandle('index.json', { create: true });
    const writable = await handle.createWritable();
    await writable.write('{"format":"rho-sessions-index","version":1,"sessions":[{"id":');
    await writable.close();
    w = startWorker(first.root);
    workers.push(w);
    expect((await w.api.listSessions({})).map((s) => s.id).sort()).toEqual(['a', 'b']);
  });

  test('folders, gz and a zip bundle round trip through OPFS', async () => {
    const a = open();
    const gz = await new Response(new Blob([sessionText('gz1')]).stream().pipeThrough(new CompressionStream('gzip'))).blob();
    const report = await a.api.importFiles({
      files: [
        { path: 'sessions/--p--/x_f1.jsonl', file: new File([sessionText('f1')], 'x_f1.jsonl') },
        { path: 'sessions/--p--/y.jsonl.gz', file: new File([gz], 'y.jsonl.gz') },
      ],
    });
    expect(report.items.map((i) => [i.name, i.outcome])).toEqual([
      ['sessions/--p--/x_f1.jsonl', 'added'],
      ['sessions/--p--/y.jsonl', 'added'],
    ]);
    const bundle = await a.api.exportBundle({});
    const b = open();
    const restored = await b.api.importFiles({ files: [new File([bundle.blob], bundle.name)] });
    expect(restored.items.map((i) => i.outcome)).toEqual(['added', 'added']);
    for (const id of ['f1', 'gz1']) {
      expect(await textOf((await b.api.exportSession({ id })).blob)).toBe(await textOf((await a.api.exportSession({ id })).blob));
    }
    expect(await namesIn(b.root, 'spool')).toEqual([]);
  });

  test('other tabs hear about changes on the BroadcastChannel', async () => {
    const { api } = open();
    const channel = new BroadcastChannel('rho-sessions');
    const heard = new Promise((resolve) => channel.addEventListener('message', (e) => resolve(e.data), { once: true }));
    await api.importFiles({ files: [new File([sessionText('bc')], 'bc.jsonl')] });
    expect(await heard).toEqual({ type: 'changed', ids: ['bc'] });
    channel.close();
  });

  // The cancel must land mid-import on any machine: the test holds the write lock of the second
  // file's session (as another tab writing it would), so the worker has stored the first file and
  // waits on the second when the test cancels. Nothing here races a clock.
  // At full speed and with the CPU slowed 4× (a phone's speed).
  test.each([1, 4])('a cancelled import keeps what it finished, leaves no partial file, and stops waiting for a busy session (CPU %i×)', async (rate) => {
    await cdp().send('Emulation.setCPUThrottlingRate', { rate });
    onTestFinished(() => cdp().send('Emulation.setCPUThrottlingRate', { rate: 1 }));
    const { api, root } = open();
    await api.importFiles({ files: [new File([sessionText('small')], 's.jsonl')] });
    const first = new File([sessionText('first', 40000)], 'first.jsonl');
    const second = new File([sessionText('second', 200)], 'second.jsonl');
    expect(first.size).toBeGreaterThan(2 * 4 * 1024 * 1024); // several chunks
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const holding = new Promise<void>((taken) =>
      navigator.locks.request('rho-sessions:write:second', () => {
        taken();
        return held;
      }),
    );
    await holding;
    const controller = new AbortController();
    const labels: string[] = [];
    const call = api.importFiles({ files: [first, second] }, { signal: controller.signal, onProgress: (p) => labels.push(p.label ?? '') });
    const outcome = call.then(
      () => 'resolved',
      (e) => e,
    );
    // The worker is waiting for the lock the test holds: an event to wait for, not a time.
    await expect.poll(async () => (await navigator.locks.query()).pending?.some((l) => l.name === 'rho-sessions:write:second'), { timeout: 55_000 }).toBe(true);
    controller.abort();
    expect(await outcome).toMatchObject({ code: 'aborted' });
    release();
    expect(labels).toContain('first.jsonl');
    expect((await api.listSessions({})).map((s) => s.id).sort()).toEqual(['first', 'small']);
    expect(await namesIn(root, 'sessions')).toEqual(['first.jsonl', 'small.jsonl']);
    // The search index is written in the background after an import (its own files go through
    // tmp/ too): bring it up to date first, so what tmp/ holds can only be the import's leftovers.
    await api.syncSearchIndex({});
    expect(await namesIn(root, 'tmp')).toEqual([]);
  });

  test('where OPFS sync handles are missing (here: the page itself) the store is in memory and says so, with why', async () => {
    const { store, memoryReason } = await openWorkerStorage();
    expect(store.persistent).toBe(false);
    expect(memoryReason).toBe('this browser offers no private file system to this worker');
  });
});
