// A folder import takes the next sessions' write locks ahead and opens their files
// (src/storage/write-locks.ts): what it took and did not use is let go, the same session twice in
// the window is still decided against what the first made, and a cancel leaves no empty file.
import { afterEach, describe, expect, test } from 'vitest';
import { freshRoot, namesIn, removeRoot, sessionText, startWorker, textOf } from '../../helpers.ts';

const roots: string[] = [];
const stops: Array<() => void> = [];
function open() {
  const root = freshRoot();
  roots.push(root);
  const w = startWorker(root);
  stops.push(w.stop);
  return { root, ...w };
}
afterEach(async () => {
  stops.splice(0).forEach((stop) => stop());
  for (const r of roots.splice(0)) await removeRoot(r);
});

const file = (id: string, turns = 3, prefix = 'e') => new File([sessionText(id, turns, prefix)], `${id}-${prefix}.jsonl`);
const heldWriteLocks = async () => ((await navigator.locks.query()).held ?? []).map((l) => l.name ?? '').filter((n) => n.startsWith('rho-sessions:write:'));

describe('locks taken ahead in a folder import', () => {
  test('waiting for a session another tab holds, it holds no lock taken ahead and leaves no empty file; a cancel keeps the sessions before it', async () => {
    const { api, root } = open();
    const ids = ['ahead-1', 'ahead-2', 'ahead-3', 'ahead-4', 'ahead-5', 'ahead-6'];
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await new Promise<void>((taken) =>
      navigator.locks.request('rho-sessions:write:ahead-3', () => {
        taken();
        return held;
      }),
    );
    const controller = new AbortController();
    const call = api.importFiles({ files: ids.map((id) => file(id)) }, { signal: controller.signal });
    const outcome = call.then(
      () => 'resolved',
      (e) => e,
    );
    await expect
      .poll(async () => ((await navigator.locks.query()).pending ?? []).some((l) => l.name === 'rho-sessions:write:ahead-3'), { timeout: 30_000 })
      .toBe(true);
    // Waiting for 3: the locks of 4-6 taken ahead were let go first (another tab importing them
    // would otherwise wait for this one, which waits for it), and the files opened for them removed.
    await expect.poll(heldWriteLocks).toEqual(['rho-sessions:write:ahead-3']);
    expect(await namesIn(root, 'sessions')).toEqual(['ahead-1.jsonl', 'ahead-2.jsonl']);
    controller.abort();
    expect(await outcome).toMatchObject({ code: 'aborted' });
    release();
    expect(await namesIn(root, 'sessions')).toEqual(['ahead-1.jsonl', 'ahead-2.jsonl']);
    expect((await api.listSessions({})).map((s) => s.id).sort()).toEqual(['ahead-1', 'ahead-2']);
    // The batch's creation log is gone: every file it named was ended (written whole, or removed).
    expect((await namesIn(root, 'journal')).filter((n) => n.startsWith('+create-'))).toEqual([]);
    const again = await api.importFiles({ files: ids.map((id) => file(id)) });
    expect(again.items.map((i) => [i.id, i.outcome])).toEqual(ids.map((id, k) => [id, k < 2 ? 'unchanged' : 'added']));
    await expect.poll(heldWriteLocks).toEqual([]);
  });

  test('two tabs importing the same folder in opposite orders both finish: each session added once, unchanged once', async () => {
    const root = freshRoot();
    roots.push(root);
    const [one, two] = [startWorker(root), startWorker(root)];
    stops.push(one.stop, two.stop);
    const files = Array.from({ length: 24 }, (_, i) => file(`ahead-both-${i}`));
    const [a, b] = await Promise.all([one.api.importFiles({ files }), two.api.importFiles({ files: [...files].reverse() })]);
    const outcomes = new Map<string, string[]>();
    for (const i of [...a.items, ...b.items]) outcomes.set(i.id ?? '', [...(outcomes.get(i.id ?? '') ?? []), i.outcome]);
    expect(outcomes.size).toBe(24);
    for (const [id, o] of outcomes) expect(o.sort(), id).toEqual(['added', 'unchanged']);
    await expect.poll(heldWriteLocks).toEqual([]);
  });

  test('the same session twice in a folder: added, then unchanged, appended or kept as a variant, as without locks ahead', async () => {
    const { api, root } = open();
    const base = sessionText('ahead-twice', 3);
    const longer = sessionText('ahead-twice', 6);
    const files = [
      new File([base], 'twice-1.jsonl'),
      file('ahead-other-1'),
      new File([base], 'twice-2.jsonl'),
      new File([longer], 'twice-3.jsonl'),
      file('ahead-twice', 3, 'f'),
      file('ahead-other-2'),
    ];
    const report = await api.importFiles({ files });
    expect(report.items.map((i) => [i.id, i.outcome])).toEqual([
      ['ahead-twice', 'added'],
      ['ahead-other-1', 'added'],
      ['ahead-twice', 'unchanged'],
      ['ahead-twice', 'updated'],
      ['ahead-twice~2', 'variant'],
      ['ahead-other-2', 'added'],
    ]);
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(root);
    const stored = await (await (await dir.getDirectoryHandle('sessions')).getFileHandle('ahead-twice.jsonl')).getFile();
    expect(await textOf(stored)).toBe(longer);
    expect(await namesIn(root, 'sessions')).toEqual(['ahead-other-1.jsonl', 'ahead-other-2.jsonl', 'ahead-twice.jsonl', 'ahead-twice~2.jsonl']);
    await expect.poll(heldWriteLocks).toEqual([]);
  });
});
