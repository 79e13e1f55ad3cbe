// New sessions are written straight into sessions/ under a creation log (src/storage/creations.ts).
// A writer killed mid-batch leaves a half-written file there: the next store to open, or a live
// store about to write that session, removes it, and every session stored before, and every
// session the batch finished, stays byte for byte.
import { afterEach, describe, expect, test } from 'vitest';
import { WRITE_SIZE } from '../../../src/storage/chunks.ts';
import { freshRoot, namesIn, removeRoot, rootDir, sessionText, startWorker, textOf } from '../helpers.ts';

const roots: string[] = [];
const stops: Array<() => void> = [];
afterEach(async () => {
  stops.splice(0).forEach((stop) => stop());
  for (const r of roots.splice(0)) await removeRoot(r);
});

async function textIn(root: string, dir: string, name: string): Promise<string | null> {
  try {
    const handle = await (await (await rootDir(root)).getDirectoryHandle(dir)).getFileHandle(name);
    return await textOf(await handle.getFile());
  } catch {
    return null;
  }
}

/** Stores the precious sessions through the app's worker, then kills a writer halfway through a batch's third session. */
async function crashMidBatch(keepApp = false, ahead: string[] = []) {
  const root = freshRoot();
  roots.push(root);
  const precious = { 'precious-a': sessionText('precious-a', 3), 'precious-b': sessionText('precious-b', 50) };
  const app = startWorker(root);
  stops.push(app.stop);
  await app.api.importFiles({ files: Object.entries(precious).map(([id, text]) => new File([text], `${id}.jsonl`)) });
  if (!keepApp) app.stop();
  const whole = [
    { id: 'batch-1', text: sessionText('batch-1', 4) },
    { id: 'batch-2', text: sessionText('batch-2', 8) },
  ];
  // Its first half is one chunk of a write's size or more, so the disk writes it at once (smaller chunks are gathered first).
  const partial = { id: 'batch-3', text: sessionText('batch-3', 4000) };
  expect(partial.text.length / 2).toBeGreaterThan(WRITE_SIZE);
  const writer = new Worker(new URL('./crash-writer.ts', import.meta.url), { type: 'module' });
  stops.push(() => writer.terminate());
  const stalled = new Promise<void>((res, rej) => {
    writer.onmessage = () => res();
    writer.onerror = (e) => rej(new Error(e.message));
  });
  writer.postMessage({ root, whole, partial, ahead });
  await stalled;
  // Sessions after it, opened ahead: their empty files are there too.
  for (const id of ahead) await expect.poll(async () => (await namesIn(root, 'sessions')).includes(`${id}.jsonl`), { timeout: 30_000 }).toBe(true);
  writer.terminate();
  // The kill landed mid-write: half of batch-3 is in sessions/, and its creation log is in journal/.
  const left = await textIn(root, 'sessions', 'batch-3.jsonl');
  expect(left?.length).toBeGreaterThan(0);
  expect(left!.length).toBeLessThan(partial.text.length);
  expect((await namesIn(root, 'journal')).filter((n) => n.startsWith('+create-'))).toHaveLength(1);
  const kept: Record<string, string> = { ...precious, ...Object.fromEntries(whole.map((s) => [s.id, s.text])) };
  return { root, kept, app };
}

async function expectEveryEarlierSession(root: string, sessions: Record<string, string>) {
  for (const [id, text] of Object.entries(sessions)) expect(await textIn(root, 'sessions', `${id}.jsonl`), id).toBe(text);
}

/**
 * A new worker on `root` after the crash: the sessions finished before it listed and stored (the
 * writer died before its index records were flushed: the store's check of the index against the
 * files, in the background after it opens, adds them), nothing else on disk, each byte for byte.
 */
async function expectRecovered(root: string, kept: Record<string, string>) {
  const app = startWorker(root);
  stops.push(app.stop);
  await expect
    .poll(async () => (await app.api.listSessions({})).map((s) => s.id).sort(), { timeout: 30_000 })
    .toEqual(['batch-1', 'batch-2', 'precious-a', 'precious-b']);
  expect(await namesIn(root, 'sessions')).toEqual(['batch-1.jsonl', 'batch-2.jsonl', 'precious-a.jsonl', 'precious-b.jsonl']);
  expect(await namesIn(root, 'journal')).toEqual([]);
  await expectEveryEarlierSession(root, kept);
  return app;
}

describe('a writer killed mid-batch (creation log)', () => {
  test('the next store to open removes the half-written session and keeps every earlier one byte for byte', async () => {
    const { root, kept } = await crashMidBatch();
    const app = await expectRecovered(root, kept);
    // The session that was cut off imports as new, whole.
    const again = sessionText('batch-3', 400);
    const report = await app.api.importFiles({ files: [new File([again], 'batch-3.jsonl')] });
    expect(report.items.map((i) => i.outcome)).toEqual(['added']);
    expect(await textIn(root, 'sessions', 'batch-3.jsonl')).toBe(again);
  });

  test('sessions opened ahead of the cut-off one (a folder import) are removed with it; every earlier one kept', async () => {
    const { root, kept } = await crashMidBatch(false, ['batch-4', 'batch-5']);
    await expectRecovered(root, kept);
  });

  test('a store that was open before the crash removes the half-written session before it writes that session', async () => {
    // The app's worker stays open through the crash (its store's open-time recovery found nothing).
    const { root, kept, app: live } = await crashMidBatch(true);
    const text = sessionText('batch-3', 30, 'f');
    const report = await live.api.importFiles({ files: [new File([text], 'batch-3.jsonl')] });
    // Not a variant of, nor an append to, the half-written file: that file is gone first.
    expect(report.items.map((i) => [i.id, i.outcome])).toEqual([['batch-3', 'added']]);
    expect(await textIn(root, 'sessions', 'batch-3.jsonl')).toBe(text);
    expect((await namesIn(root, 'journal')).filter((n) => n.startsWith('+create-'))).toEqual([]);
    await expectEveryEarlierSession(root, kept);
    const listed = await live.api.listSessions({});
    expect(listed.find((s) => s.id === 'batch-3')?.size).toBe(text.length);
  });
});
