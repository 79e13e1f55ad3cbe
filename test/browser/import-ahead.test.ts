// A folder import takes the next sessions' write locks ahead and opens their files
// (src/storage/write-locks.ts): what it took and did not use is let go, the same session twice in
// the window is still decided against what the first made, and a cancel leaves no empty file.
import { afterEach, describe, expect, test } from 'vitest';
import { freshRoot, namesIn, removeRoot, sessionText, startWorker, textOf } from './helpers.ts';

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
  test('a cancel while a later session is busy elsewhere: the sessions before it whole, no empty file, no lock held', async () => {
    const { api, root } = open();
    const ids = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await new Promise<void>((taken) =>
      navigator.locks.request('rho-sessions:write:a3', () => {
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
    // Waiting for a3's lock, with a4 (after it) opened ahead: its empty file is in sessions/.
    await expect
      .poll(async () => ((await navigator.locks.query()).pending ?? []).some((l) => l.name === 'rho-sessions:write:a3'), { timeout: 30_000 })
      .toBe(true);
    await expect.poll(async () => (await namesIn(root, 'sessions')).includes('a4.jsonl'), { timeout: 30_000 }).toBe(true);
    controller.abort();
    expect(await outcome).toMatchObject({ code: 'aborted' });
    // Let go as the call ends (the browser hears of it a moment later: wait for that, not a time).
    await expect.poll(heldWriteLocks).toEqual(['rho-sessions:write:a3']);
    release();
    expect(await namesIn(root, 'sessions')).toEqual(['a1.jsonl', 'a2.jsonl']);
    expect((await api.listSessions({})).map((s) => s.id).sort()).toEqual(['a1', 'a2']);
    // The batch's creation log is gone: every file it named was ended (written whole, or removed).
    expect((await namesIn(root, 'journal')).filter((n) => n.startsWith('+create-'))).toEqual([]);
    const again = await api.importFiles({ files: ids.map((id) => file(id)) });
    expect(again.items.map((i) => [i.id, i.outcome])).toEqual(ids.map((id, k) => [id, k < 2 ? 'unchanged' : 'added']));
    await expect.poll(heldWriteLocks).toEqual([]);
  });

  test('the same session twice in a folder: added, then unchanged, appended or kept as a variant, as without locks ahead', async () => {
    const { api, root } = open();
    const base = sessionText('twice', 3);
    const longer = sessionText('twice', 6);
    const files = [
      new File([base], 'twice-1.jsonl'),
      file('other-1'),
      new File([base], 'twice-2.jsonl'),
      new File([longer], 'twice-3.jsonl'),
      file('twice', 3, 'f'),
      file('other-2'),
    ];
    const report = await api.importFiles({ files });
    expect(report.items.map((i) => [i.id, i.outcome])).toEqual([
      ['twice', 'added'],
      ['other-1', 'added'],
      ['twice', 'unchanged'],
      ['twice', 'updated'],
      ['twice~2', 'variant'],
      ['other-2', 'added'],
    ]);
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(root);
    const stored = await (await (await dir.getDirectoryHandle('sessions')).getFileHandle('twice.jsonl')).getFile();
    expect(await textOf(stored)).toBe(longer);
    expect(await namesIn(root, 'sessions')).toEqual(['other-1.jsonl', 'other-2.jsonl', 'twice.jsonl', 'twice~2.jsonl']);
    await expect.poll(heldWriteLocks).toEqual([]);
  });
});
