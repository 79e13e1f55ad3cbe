// The stored envelope index written as sessions are stored (worker/import/envelopes.ts): at import,
// from the bytes as they are written; extended by an import's append and by the library's own
// appends (labels); left alone (to be rebuilt on the reader's open) when it no longer describes
// the bytes before the append. Every stored index read back says what indexing the file says.
import { describe, expect, test } from 'vitest';
import { decodeEnvelopeIndex, encodeEnvelopeIndex, fingerprintOf } from '../../../src/core/envelope/envelope-file.ts';
import { bodyOf, type EnvelopeIndex, indexEnvelopes, user } from '../../../src/core/index.ts';
import { COMPACT_MIN_BYTES, ENVELOPE_MIN_BYTES, envelopePath } from '../../../src/storage/envelope-index.ts';
import { createSessionFiles } from '../../../src/worker/host/session-file.ts';
import { openStoredSource } from '../../../src/worker/reader/stored-source.ts';
import { createApi } from '../../../src/worker/api.ts';
import { memoryStore, sessionText } from '../../storage/helpers.ts';

function setup() {
  const { disk, store } = memoryStore({ now: () => 1_700_000_000_000 });
  let n = 0;
  const api = createApi({ store, now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => (++n).toString(16).padStart(8, '0') });
  return { api, store, disk };
}

const file = (name: string, content: string) => new File([content], name);

function said(index: EnvelopeIndex) {
  const { bytes: _b, read: _r, file: _f, ...rest } = index;
  return { ...rest, bodies: index.ids.map((_, i) => bodyOf(index, i)) };
}

/** The session's bytes and its stored index read back against them (null: none stored, or it describes other bytes). */
async function storedIndex(ctx: ReturnType<typeof setup>, id: string) {
  const session = await ctx.store.readBytes(id);
  const read = (s: number, e: number) => session.slice(s, e);
  const bytes = (await ctx.disk.size(envelopePath(id))) === null ? null : await ctx.disk.read(envelopePath(id));
  const decoded = bytes && decodeEnvelopeIndex(bytes, read);
  const current = decoded && decoded.index.size === session.length && decoded.fingerprint === fingerprintOf(session.length, read);
  return { session, index: current ? decoded.index : null, raw: bytes };
}

/** Asserts the stored index describes the session as it is, exactly as indexing the file whole. */
async function expectCurrent(ctx: ReturnType<typeof setup>, id: string) {
  const { session, index } = await storedIndex(ctx, id);
  expect(index).not.toBeNull();
  expect(said(index!)).toEqual(said(indexEnvelopes(session)));
  return index!;
}

/** Turns that make a session of `sessionText` big enough to keep an index (about 300 KB). */
const T = 500;

describe('the stored envelope index', () => {
  test('is kept by sessions of at least ENVELOPE_MIN_BYTES only (the test sizes are on either side of it)', () => {
    expect(sessionText('s1', T).length).toBeGreaterThan(ENVELOPE_MIN_BYTES);
    expect(sessionText('s1', 100).length).toBeLessThan(ENVELOPE_MIN_BYTES);
  });

  test('is written at import, before any open, from the bytes as they are stored', async () => {
    const ctx = setup();
    // Longer than one chunk of the import's stream (lines cross chunk ends).
    const big = sessionText('big', 4000);
    expect(big.length).toBeGreaterThan(1 << 19);
    await ctx.api.importFiles({ files: [file('a.jsonl', sessionText('s1', T)), file('b.jsonl', big)] });
    expect((await expectCurrent(ctx, 's1')).ids.length).toBe(2 * T);
    expect((await expectCurrent(ctx, 'big')).ids.length).toBe(8000);
  });

  test('is extended by an import that appends (stored is a prefix) and by a label', async () => {
    const ctx = setup();
    await ctx.api.importFiles({ files: [file('a.jsonl', sessionText('s1', T))] });
    const before = (await storedIndex(ctx, 's1')).raw;
    const report = await ctx.api.importFiles({ files: [file('a.jsonl', sessionText('s1', T + 27))] });
    expect(report.items[0].outcome).toBe('updated');
    expect((await expectCurrent(ctx, 's1')).ids.length).toBe(2 * (T + 27));
    expect((await storedIndex(ctx, 's1')).raw).not.toEqual(before);
    await ctx.api.labelEntry({ id: 's1', entryId: 'e0000003', label: 'here' });
    const labelled = await expectCurrent(ctx, 's1');
    expect(labelled.ids.length).toBe(2 * (T + 27) + 1);
    expect(labelled.types.at(-1)).toBe('label');
  });

  test('an index for other bytes is not extended (the open rebuilds it); a damaged one neither', async () => {
    const ctx = setup();
    await ctx.api.importFiles({ files: [file('a.jsonl', sessionText('s1', T))] });
    // Stale: the index of other bytes (fewer lines) with their fingerprint.
    const other = new TextEncoder().encode(sessionText('s1', T - 1));
    const staleIndex = encodeEnvelopeIndex(
      indexEnvelopes(other),
      fingerprintOf(other.length, (s, e) => other.slice(s, e)),
    );
    await ctx.disk.writeNew(
      envelopePath('s1'),
      (async function* () {
        yield staleIndex;
      })(),
    );
    await ctx.api.importFiles({ files: [file('a.jsonl', sessionText('s1', T + 1))] });
    expect((await storedIndex(ctx, 's1')).index).toBeNull();
    expect((await storedIndex(ctx, 's1')).raw).toEqual(staleIndex);
    // Damaged: a flipped byte; the label's append leaves it as it is.
    const damaged = staleIndex.slice();
    damaged[damaged.length - 3] ^= 1;
    await ctx.disk.writeNew(
      envelopePath('s1'),
      (async function* () {
        yield damaged;
      })(),
    );
    await ctx.api.labelEntry({ id: 's1', entryId: 'e0000001', label: 'x' });
    expect((await storedIndex(ctx, 's1')).raw).toEqual(damaged);
    // A session that the stream cannot index (its last line has no "\n") gets none at import.
    await ctx.api.importFiles({ files: [file('t.jsonl', sessionText('t1', T).trimEnd())] });
    expect((await storedIndex(ctx, 't1')).raw).toBeNull();
  });

  test("a small session keeps none, through its appends and labels; past the size, the reader's open makes its first", async () => {
    const ctx = setup();
    await ctx.api.importFiles({ files: [file('a.jsonl', sessionText('s1', 3)), file('b.jsonl', sessionText('s2', T))] });
    expect((await storedIndex(ctx, 's1')).raw).toBeNull();
    expect((await storedIndex(ctx, 's2')).raw).not.toBeNull();
    await ctx.api.importFiles({ files: [file('a.jsonl', sessionText('s1', 30))] });
    expect((await storedIndex(ctx, 's1')).raw).toBeNull();
    // Grown past the size by an import's append, then a label: nothing to extend, so nothing is written (stored-source.ts indexes it on open).
    const report = await ctx.api.importFiles({ files: [file('a.jsonl', sessionText('s1', T))] });
    expect(report.items[0].outcome).toBe('updated');
    await ctx.api.labelEntry({ id: 's1', entryId: 'e0000003', label: 'here' });
    expect((await storedIndex(ctx, 's1')).raw).toBeNull();
    expect((await ctx.disk.list('envelopes')).map((e) => e.name)).toEqual(['s2.idx']);
  });

  test('each append adds a block of its entries at the end; when blocks pile up, one append folds them into the index written whole', async () => {
    const ctx = setup();
    await ctx.api.importFiles({ files: [file('a.jsonl', sessionText('s1', T))] });
    // The host's appends (worker/host/session-file.ts): one user message each.
    let n = 0;
    const files = createSessionFiles(ctx.store, { now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => `h${(++n).toString(16).padStart(7, '0')}` });
    let session = await files.open('s1');
    let size = (await ctx.disk.size(envelopePath('s1')))!;
    let folded = 0;
    let appended = 0;
    for (let k = 0; k < 400 && !folded; k++) {
      session = (await files.append('s1', session, [user(`message ${k}`)])).session;
      const now = (await ctx.disk.size(envelopePath('s1')))!;
      if (now > size) {
        // A block: the message's envelope and what the index covers, not the index again.
        expect(now - size).toBeLessThan(1024);
        appended++;
        if (k % 16 === 0) expect((await expectCurrent(ctx, 's1')).ids.at(-1)).toBe(`h${n.toString(16).padStart(7, '0')}`);
      } else {
        // Folded: the index as a fresh build of the session lays it out, byte for byte.
        const session = await ctx.store.readBytes('s1');
        expect((await storedIndex(ctx, 's1')).raw).toEqual(
          encodeEnvelopeIndex(
            indexEnvelopes(session),
            fingerprintOf(session.length, (s, e) => session.slice(s, e)),
          ),
        );
        folded++;
      }
      size = now;
    }
    expect(folded).toBe(1);
    expect(appended).toBeGreaterThan(COMPACT_MIN_BYTES / 1024);
    await expectCurrent(ctx, 's1');
  });

  test('a torn block (a crash mid-append) is not trusted: later appends leave the index alone, and the open indexes the file', async () => {
    const ctx = setup();
    await ctx.api.importFiles({ files: [file('a.jsonl', sessionText('s1', T))] });
    await ctx.api.labelEntry({ id: 's1', entryId: 'e0000001', label: 'one' });
    await expectCurrent(ctx, 's1');
    const whole = (await ctx.disk.size(envelopePath('s1')))!;
    await ctx.disk.truncate(envelopePath('s1'), whole - 7);
    const torn = (await storedIndex(ctx, 's1')).raw;
    expect((await storedIndex(ctx, 's1')).index).toBeNull();
    await ctx.api.labelEntry({ id: 's1', entryId: 'e0000002', label: 'two' });
    expect((await storedIndex(ctx, 's1')).raw).toEqual(torn);
    const source = await openStoredSource(ctx.store, 's1');
    expect(said(source.index)).toEqual(said({ ...indexEnvelopes(await ctx.store.readBytes('s1')), file: 's1' }));
  });
});
