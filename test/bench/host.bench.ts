/**
 * The host room's write path (Node, memory store): appending one user message to a stored session
 * of `size` MB through the host's session file (the core's `append`, the store's `appendLines`, a
 * block of the entry's envelopes added after the stored envelope index, the library record from the
 * digest kept beside the session held in memory) against reopening the same file (the core's `parse` of its bytes); the bytes each append writes, by file; and the
 * search index catching up with the appended session (its sync) against building it for the file, and
 * the append whose sync folds the session's deltas into its part.
 * `npm run bench -- host [--sizes 100]`.
 */
import { user } from '../../src/core/index.ts';
import { parse } from '../../src/core/index.ts';
import { createSessionFiles } from '../../src/worker/host/session-file.ts';
import { headerLine, memoryStore, messageLine } from '../storage/helpers.ts';
import { createEnvelopeIndexer } from '../../src/core/envelope/envelope-stream.ts';
import { compactsAt, keepEnvelopeIndex } from '../../src/storage/envelope-index.ts';
import { createLibraryIndex } from '../../src/worker/search/library-index.ts';
import { FOLD_AFTER } from '../../src/worker/search/grow.ts';
import type { BenchSuite } from './harness.ts';

function sessionOf(id: string, mb: number): Uint8Array {
  const lines = [headerLine(id)];
  const text = 'The tide table parser reads each row and checks its columns. '.repeat(80);
  let parent: string | null = null;
  let size = 0;
  for (let i = 0; size < mb * 1024 * 1024; i++) {
    const eid = i.toString(16).padStart(8, '0');
    const line = messageLine(eid, parent, i % 2 ? 'assistant' : 'user', `${i} ${text}`);
    lines.push(line);
    size += line.length + 1;
    parent = eid;
  }
  return new TextEncoder().encode(lines.join('\n') + '\n');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default {
  name: 'host',
  description: 'appending one host entry to a big session vs reopening the file',
  defaultSizes: [100],
  async run(ctx) {
    const mb = ctx.sizes?.[0] ?? 100;
    const runs = ctx.runs ?? 3;
    const id = 'bench-host-0000';
    const bytes = sessionOf(id, mb);
    const { store, disk } = memoryStore();
    await store.create(
      id,
      (async function* () {
        yield bytes;
      })(),
    );
    // The stored envelope index an import leaves beside a session this big (the append extends it).
    const streamed = createEnvelopeIndexer();
    streamed.push(bytes);
    let indexBytes = 0;
    await keepEnvelopeIndex(store, id, bytes.length, () => {
      const stored = streamed.finish();
      indexBytes = stored?.length ?? 0;
      return stored;
    });
    let n = 0;
    const files = createSessionFiles(store, { now: () => new Date(), randomId: () => `f${(++n).toString(16).padStart(7, '0')}` });
    let session = await files.open(id);
    // Bytes the store reads from the disk during the appends (all paths), counted on its disk.
    let readBytes = 0;
    const read = disk.read.bind(disk);
    const blob = disk.blob.bind(disk);
    // Bytes written during the appends, by the first part of the path (sessions/, envelopes/, the library index…).
    const written = new Map<string, number>();
    const count = (path: string, n: number) => {
      const where = path.split('/')[0];
      written.set(where, (written.get(where) ?? 0) + n);
    };
    let counting = false;
    const counted = (path: string, chunks: AsyncIterable<Uint8Array>) =>
      (async function* () {
        for await (const c of chunks) {
          if (counting) count(path, c.length);
          yield c;
        }
      })();
    const writeNew = disk.writeNew.bind(disk);
    disk.writeNew = (path, chunks, signal) => writeNew(path, counted(path, chunks), signal);
    const writeInPlace = disk.writeInPlace?.bind(disk);
    if (writeInPlace) disk.writeInPlace = (path, chunks, opts) => writeInPlace(path, counted(path, chunks), opts);
    const append = disk.append.bind(disk);
    disk.append = (path, bytes, signal) => {
      if (!(bytes instanceof Uint8Array)) return append(path, counted(path, bytes), signal);
      if (counting) count(path, bytes.length);
      return append(path, bytes, signal);
    };
    const appends: number[] = [];
    const reopens: number[] = [];
    for (let r = 0; r < runs; r++) {
      disk.read = async (path, start, end) => {
        const b = await read(path, start, end);
        readBytes += b.length;
        return b;
      };
      disk.blob = async (path) => {
        const b = await blob(path);
        readBytes += b.size;
        return b;
      };
      counting = true;
      const t0 = performance.now();
      const w = await files.append(id, session, [user(`one more message ${r}`)]);
      appends.push(performance.now() - t0);
      counting = false;
      disk.read = read;
      disk.blob = blob;
      session = w.session;
      const t1 = performance.now();
      parse(await store.readBytes(id));
      reopens.push(performance.now() - t1);
    }
    // The search index: built for the file, then brought to it after one more append (what the app does after a write).
    const index = createLibraryIndex(store, disk);
    const b0 = performance.now();
    await index.sync();
    const built = performance.now() - b0;
    await files.append(id, session, [user('one more message for the search index')]);
    const searchBefore = written.get('search') ?? 0;
    counting = true;
    const s0 = performance.now();
    await index.sync();
    const caughtUp = performance.now() - s0;
    counting = false;
    const searchWritten = (written.get('search') ?? 0) - searchBefore;
    // Deltas pile up beside the session's part until an append folds them into one part (from their records, not the file).
    for (let k = 2; k < FOLD_AFTER; k++) {
      session = (await files.append(id, session, [user(`one more message ${k}`)])).session;
      await index.sync();
    }
    session = (await files.append(id, session, [user('the message whose indexing folds the deltas')])).session;
    const f0 = performance.now();
    await index.sync();
    const folded = performance.now() - f0;
    const a = median(appends);
    const o = median(reopens);
    ctx.row({ name: `host: reopen a ${mb} MB session (read + parse)`, value: o, unit: 'ms' });
    ctx.row({
      name: `host: append one entry to it (core append + store appendLines)`,
      value: a,
      unit: 'ms',
      baseline: o,
      ratio: a / o,
      target: '≤ 0.1× (the entry’s cost, not the file’s)',
      ok: a / o <= 0.1,
      note: `${(readBytes / runs).toFixed(0)} bytes read from the disk per append; the library record comes from the digest kept beside the session held in memory (core held-digest.ts: only the appended entries are read): the file is not read again`,
    });
    const perAppend = [...written].filter(([k]) => k !== 'search').map(([k, v]) => `${k} ${Math.round(v / runs)}`);
    // The envelope index: each append adds a block at its end; once the blocks pass `compactsAt`, one append writes it whole.
    const block = (written.get('envelopes') ?? 0) / runs;
    let perFold = 1;
    while (block > 0 && !compactsAt(indexBytes, perFold * block)) perFold++;
    ctx.row({
      name: 'host: bytes written per append (all files)',
      value: [...written].filter(([k]) => k !== 'search').reduce((n, [, v]) => n + v, 0) / runs,
      unit: 'B',
      note: `by file: ${perAppend.join(', ')}; the entry itself is the sessions/ part, envelopes/ one block of its envelopes after the stored index (${indexBytes} B); every ${perFold}th append instead reads and writes that index whole, with the blocks folded in (not among these runs)`,
    });
    ctx.row({ name: `host: search index built for the ${mb} MB session`, value: built, unit: 'ms' });
    ctx.row({
      name: 'host: search index brought to the session after one append',
      value: caughtUp,
      unit: 'ms',
      baseline: built,
      ratio: caughtUp / built,
      target: '≤ 0.1× (the entry’s cost, not the file’s)',
      ok: caughtUp / built <= 0.1,
      note: `${searchWritten} bytes written to search/ (a delta of the new entry beside the session's part, and its entry appended to the manifest's log); every ${FOLD_AFTER}th append instead folds the part and its deltas into one part (next row)`,
    });
    ctx.row({
      name: `host: search index brought to the session after the append that folds its ${FOLD_AFTER} deltas`,
      value: folded,
      unit: 'ms',
      baseline: built,
      ratio: folded / built,
      note: 'the part and its deltas read from their records and written as one part: the file is not read',
    });
  },
} satisfies BenchSuite;
