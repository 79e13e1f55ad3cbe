// The stored envelope index in real OPFS through the real worker: written at import (from the bytes
// as they are stored), used on a reopen (a new worker) instead of reading the file, extended by an
// append, and made again from the file when it is stale (other bytes) or damaged.
// To see which index a reopen used, the test stores one that says something the file does not
// (another title, with the file's own fingerprint): only a reopen through it shows that title.
import { afterEach, expect, test } from 'vitest';
import { decodeEnvelopeIndex, encodeEnvelopeIndex, fingerprintOf } from '../../../src/core/envelope/envelope-file.ts';
import { bodyOf, type EnvelopeIndex, indexEnvelopes } from '../../../src/core/index.ts';
import { ENVELOPE_MIN_BYTES } from '../../../src/storage/envelope-index.ts';
import { freshRoot, removeRoot, rootDir, sessionText, startWorker } from '../helpers.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ID = 'stored-index-1';
/** Turns that make the session big enough to keep a stored index (smaller ones keep none). */
const N = 700;
const lastId = (turns: number) => `e${(2 * turns - 1).toString(16).padStart(7, '0')}`;

async function fileIn(root: string, dir: string, name: string): Promise<Uint8Array | null> {
  try {
    const handle = await (await (await rootDir(root)).getDirectoryHandle(dir)).getFileHandle(name);
    return new Uint8Array(await (await handle.getFile()).arrayBuffer());
  } catch {
    return null;
  }
}

async function writeIn(root: string, dir: string, name: string, bytes: Uint8Array) {
  const handle = await (await (await rootDir(root)).getDirectoryHandle(dir, { create: true })).getFileHandle(name, { create: true });
  const writable = await handle.createWritable();
  await writable.write(bytes as Uint8Array<ArrayBuffer>);
  await writable.close();
}

/** The session file and its stored index, decoded (null when there is none or it does not decode). */
async function stored(root: string, id = ID) {
  const session = (await fileIn(root, 'sessions', `${id}.jsonl`))!;
  const file = await fileIn(root, 'envelopes', `${id}.idx`);
  const read = (s: number, e: number) => session.slice(s, e);
  return { session, decoded: file && decodeEnvelopeIndex(file, read), read };
}

/** What an index says (bodies included), without the bytes it reads them from. */
function said(index: EnvelopeIndex) {
  const { bytes: _b, read: _r, file: _f, ...rest } = index;
  return { ...rest, bodies: index.ids.map((_, i) => bodyOf(index, i)) };
}

/** Opens the session in a fresh worker (nothing cached) and returns its outline. */
async function reopen(root: string) {
  const w = startWorker(root);
  cleanups.push(() => w.stop());
  const view = await w.api.openSession({ id: ID });
  return { view, stop: () => w.stop() };
}

/** Waits until the stored index describes the session as it is now (the worker stores it a moment after an open). */
async function storedIndexMatches(root: string, id = ID) {
  await expect
    .poll(
      async () => {
        const { session, decoded, read } = await stored(root, id);
        return decoded ? decoded.index.size === session.length && decoded.fingerprint === fingerprintOf(session.length, read) : false;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  const { session, decoded } = await stored(root, id);
  expect(said(decoded!.index)).toEqual(said(indexEnvelopes(session)));
}

/** Stores an index of the session's bytes that gives another title, with a fingerprint of our choosing (the file's own by default). */
async function storeLyingIndex(root: string, fingerprint?: string) {
  const { session, read } = await stored(root);
  const index = indexEnvelopes(session);
  index.header = { ...index.header!, title: 'FROM THE INDEX' };
  await writeIn(root, 'envelopes', `${ID}.idx`, encodeEnvelopeIndex(index, fingerprint ?? fingerprintOf(session.length, read)));
}

/** The stored index describes the session as it is now, as indexing the file says (no waiting: it is written with the file). */
async function storedIndexIsCurrent(root: string) {
  const { session, decoded, read } = await stored(root);
  expect(decoded?.index.size).toBe(session.length);
  expect(decoded?.fingerprint).toBe(fingerprintOf(session.length, read));
  expect(said(decoded!.index)).toEqual(said(indexEnvelopes(session)));
}

test('stored at import, used on reopen, extended after an append, rebuilt when stale or damaged', async () => {
  const root = freshRoot();
  cleanups.push(() => removeRoot(root));
  const first = startWorker(root);
  cleanups.push(() => first.stop());
  expect(sessionText(ID, N).length).toBeGreaterThan(ENVELOPE_MIN_BYTES);
  await first.api.importFiles({ files: [new File([sessionText(ID, N)], 's.jsonl')] });
  await storedIndexIsCurrent(root);
  const opened = await first.api.openSession({ id: ID });
  expect(opened.entryCount).toBe(2 * N);
  expect(opened.title).not.toBe('FROM THE INDEX');
  await storedIndexMatches(root);

  // A reopen goes through the stored index (it says another title, so the view does).
  await storeLyingIndex(root);
  let again = await reopen(root);
  expect(again.view.title).toBe('FROM THE INDEX');
  expect(again.view.entryCount).toBe(2 * N);
  again.stop();

  // An append (the same session imported longer) extends the stored index as it is written — the
  // title still comes from it on the reopen.
  await first.api.importFiles({ files: [new File([sessionText(ID, N + 1)], 's.jsonl')] });
  expect((await stored(root)).decoded?.index.size).toBe((await stored(root)).session.length);
  again = await reopen(root);
  expect(again.view.entryCount).toBe(2 * N + 2);
  expect(again.view.title).toBe('FROM THE INDEX');
  expect(again.view.items.at(-1)?.entryId).toBe(lastId(N + 1));
  await expect.poll(async () => (await stored(root)).decoded?.index.size, { timeout: 30_000 }).toBe((await stored(root)).session.length);
  again.stop();

  // Stale: an index whose fingerprint is not the file's (other bytes of the same size, or another size) is not used.
  for (const fingerprint of ['0:x:y', `${(await stored(root)).session.length - 1}:00:00`]) {
    await storeLyingIndex(root, fingerprint);
    again = await reopen(root);
    expect(again.view.title).not.toBe('FROM THE INDEX');
    expect(again.view.entryCount).toBe(2 * N + 2);
    await storedIndexMatches(root);
    again.stop();
  }

  // Damaged: garbage, or an index cut short, is not read; the file is, and a good index is stored again.
  for (const damage of [(b: Uint8Array) => b.map((x, i) => (i % 97 === 5 ? x ^ 1 : x)), (b: Uint8Array) => b.subarray(0, b.length >> 1)]) {
    const file = (await fileIn(root, 'envelopes', `${ID}.idx`))!;
    await writeIn(root, 'envelopes', `${ID}.idx`, damage(file));
    again = await reopen(root);
    expect(again.view.entryCount).toBe(2 * N + 2);
    expect(again.view.items.at(-1)?.entryId).toBe(lastId(N + 1));
    await storedIndexMatches(root);
    again.stop();
  }
});

test('a small session keeps no stored index: not at import, not after an open', async () => {
  const root = freshRoot();
  cleanups.push(() => removeRoot(root));
  const w = startWorker(root);
  cleanups.push(() => w.stop());
  const SMALL = 'stored-index-small';
  expect(sessionText(SMALL, 5).length).toBeLessThan(ENVELOPE_MIN_BYTES);
  await w.api.importFiles({ files: [new File([sessionText(SMALL, 5)], 'small.jsonl'), new File([sessionText(ID, N)], 's.jsonl')] });
  expect((await stored(root, SMALL)).decoded).toBeNull();
  await storedIndexIsCurrent(root);
  // The big one's index removed: both opened, the small one first; the worker stores an opened
  // session's index a moment later, the small one's first if it stored one at all.
  await (await (await rootDir(root)).getDirectoryHandle('envelopes')).removeEntry(`${ID}.idx`);
  const again = startWorker(root);
  cleanups.push(() => again.stop());
  expect((await again.api.openSession({ id: SMALL })).entryCount).toBe(10);
  expect((await again.api.openSession({ id: ID })).entryCount).toBe(2 * N);
  await storedIndexMatches(root);
  expect(await fileIn(root, 'envelopes', `${SMALL}.idx`)).toBeNull();
});
