/**
 * The core's reading speed and memory on generated pi sessions (tool calls, thinking, base64
 * images, branches, compactions), side by side with
 *   (a)  plain JSON.parse of every line of the same text, and
 *   (b)  pi 0.73.1: parseSessionEntries + buildSessionContext + convertToLlm.
 * Every variant starts from the same bytes in memory (as read from disk or OPFS), so UTF-8
 * decoding is counted everywhere; the "(from text)" rows start from an already decoded string.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { buildSessionContext, convertToLlm, parseSessionEntries } from '@mariozechner/pi-coding-agent';
import * as core from '../../src/core/index.ts';
import { expectedFromPi, fromModelMessages } from '../core/fidelity/normalize.ts';
import { piPath, summarizedAttachments } from '../core/fidelity/pi-path.ts';
import { ensureGenerated } from '../gen/fixtures.ts';
import { atMost, type BenchContext, type BenchSuite, compare, measureMemory, type Timing } from './harness.ts';
import { decodeEnvelopeIndex, encodeEnvelopeIndex, fingerprintOf } from '../../src/core/envelope/envelope-file.ts';
import { storedScreen } from '../../src/core/envelope/envelope-reopen.ts';
import { hasEnvelopeIndex, hasTailScreen, lastScreen, lastScreenFull, SCREEN_ENTRIES } from './last-screen.ts';

/** Synchronous reads of bytes [start, end) of a file (as the worker's FileReaderSync does). */
function fileReader(fd: number, size: number) {
  return (start: number, end: number) => {
    const out = new Uint8Array(Math.max(0, Math.min(end, size) - start));
    readSync(fd, out, 0, out.length, start);
    return out;
  };
}

/**
 * A reopen: read the stored index file, check its fingerprint against the session file, walk the
 * leaf's branch and read the last screen's bodies from the session file by their byte ranges.
 * Nothing else of the session is read. `storedScreen` walks the stored positions without building
 * the whole index; `full` decodes the whole index first (as src/worker/reader/stored-source.ts does for a
 * reader that then scrolls anywhere).
 */
function reopenScreen(indexPath: string, sessionPath: string, size: number, full = false): unknown[] {
  const fd = openSync(sessionPath, 'r');
  try {
    const read = fileReader(fd, size);
    const stored = new Uint8Array(readFileSync(indexPath));
    if (!full) {
      const screen = storedScreen(stored, read, SCREEN_ENTRIES);
      if (!screen || screen.fingerprint !== fingerprintOf(size, read)) throw new Error('stored index refused');
      return screen.entries;
    }
    const decoded = decodeEnvelopeIndex(stored, read);
    if (!decoded || decoded.fingerprint !== fingerprintOf(size, read)) throw new Error('stored index refused');
    return core.bodiesOf(decoded.index, core.branchOfIndex(decoded.index).slice(-SCREEN_ENTRIES));
  } finally {
    closeSync(fd);
  }
}

const MB = 1e6;
/** Times are CPU milliseconds of the process (user + system): see compare() in harness.ts. */
const cpuOf = (t: Record<string, Timing>) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.cpu])) as Record<string, number>;

/**
 * Parses one timed run makes in a row (every result held, as an app holds an opened session); rows
 * give the time per parse. compare() empties the heap before each run, so a run whose allocation
 * fits in V8's young generation (16 MB semi-spaces in Node) pays no scavenge, and the promotion of
 * what it keeps is charged to no one, while one allocating a little more pays scavenges copying its
 * whole result: a cliff, not a cost in proportion. At 10 MB the variants straddle it (JSON.parse of
 * the lines allocates 17.2 MB, the core's parse 17.8 MB); 40 MB runs pay scavenges on every side.
 */
const PARSE_BATCH_BYTES = 40 * MB;
const parseBatch = (size: number) => Math.max(1, Math.ceil(PARSE_BATCH_BYTES / size));

function batched(n: number, parse: () => unknown): () => unknown[] {
  return () => {
    const held: unknown[] = [];
    for (let i = 0; i < n; i++) held.push(parse());
    return held;
  };
}

const perParse = (t: Record<string, Timing>, n: number) =>
  Object.fromEntries(Object.entries(t).map(([k, v]) => [k, { wall: v.wall / n, cpu: v.cpu / n }])) as Record<string, Timing>;

function jsonLines(text: string): unknown[] {
  const out: unknown[] = [];
  for (const line of text.split('\n')) if (line.length > 0) out.push(JSON.parse(line));
  return out;
}

function piOpen(text: string): unknown {
  const entries = parseSessionEntries(text);
  const ctx = buildSessionContext(entries.filter((e) => e.type !== 'session') as never);
  return convertToLlm(ctx.messages);
}

function coreOpen(input: Uint8Array | string): unknown {
  const s = core.parse(input);
  return core.context(core.branch(s));
}

async function runSize(ctx: BenchContext, sizeMb: number): Promise<void> {
  ctx.log(`${sizeMb} MB: generating (cached in fixtures/generated/)`);
  const file = ensureGenerated(sizeMb);
  const buf = readFileSync(file);
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  const text = new TextDecoder().decode(bytes);
  const size = `${sizeMb} MB`;
  const runs = ctx.runs ?? (sizeMb >= 100 ? 3 : sizeMb >= 30 ? 4 : 5);
  const dec = new TextDecoder();

  // Fidelity at this size: our context equals pi's after the §0.3 differences (normalize.ts).
  const ours = fromModelMessages(coreOpen(bytes) as Record<string, unknown>[]);
  const piEntries = (parseSessionEntries(text) as unknown as Record<string, unknown>[]).filter((e) => e.type !== 'session');
  const expected = expectedFromPi(convertToLlm(buildSessionContext(piEntries as never).messages) as unknown as Record<string, unknown>[], {
    attachmentLines: summarizedAttachments(piPath(piEntries)),
  });
  const same = isDeepStrictEqual(ours, expected);
  const firstDiff = same ? -1 : ours.findIndex((m, i) => !isDeepStrictEqual(m, expected[i]));
  ctx.log(`${size}: ${bytes.length} bytes, ${core.parse(bytes).entries.length} entries, context ${ours.length} messages (pi ${expected.length})`);
  const tail = core.tailScreen(bytes, SCREEN_ENTRIES);
  const expectedScreen = core.branch(core.parse(bytes)).slice(-SCREEN_ENTRIES);
  for (const screen of [lastScreen(core as Record<string, unknown>, bytes), lastScreenFull(core as Record<string, unknown>, bytes)])
    if (screen && !isDeepStrictEqual(screen, expectedScreen)) throw new Error("last screen differs from the tail of parse's branch");
  ctx.row({
    name: `core context = pi context (§0.3 differences applied), ${size}`,
    value: same ? 1 : 0,
    unit: 'bool',
    target: '= 1',
    ok: same,
    note: same ? `${ours.length} messages` : `first difference at message ${firstDiff}`,
  });

  const batch = parseBatch(bytes.length);
  ctx.log(`${size}: timing parse (${runs} rounds of ${batch} parse${batch > 1 ? 's' : ''} in a row)`);
  const t = cpuOf(
    perParse(
      await compare(
        {
          a: batched(batch, () => jsonLines(text)),
          aBytes: batched(batch, () => jsonLines(dec.decode(bytes))),
          parseText: batched(batch, () => core.parse(text)),
          parseBytes: batched(batch, () => core.parse(bytes)),
          parseNoValidate: batched(batch, () => core.parse(bytes, { validate: false })),
        },
        runs,
      ),
      batch,
    ),
  );
  const batchNote = batch > 1 ? `per parse: ${batch} parses in a row, every result held` : undefined;
  const parseTarget = atMost(1.5, '× (a)');
  ctx.row({ name: `(a) JSON.parse every line, ${size} (from text)`, value: t.a, unit: 'ms cpu', note: batchNote });
  ctx.row({
    name: `core parse, validated, ${size} (from text)`,
    value: t.parseText,
    unit: 'ms cpu',
    baseline: t.a,
    ratio: t.parseText / t.a,
    target: parseTarget.target,
    ok: parseTarget.check(t.parseText / t.a),
    note: batchNote,
  });
  ctx.row({ name: `(a') decode + JSON.parse every line, ${size} (from bytes)`, value: t.aBytes, unit: 'ms cpu', note: batchNote });
  ctx.row({
    name: `core parse, validated, ${size} (from bytes)`,
    value: t.parseBytes,
    unit: 'ms cpu',
    baseline: t.aBytes,
    ratio: t.parseBytes / t.aBytes,
    target: parseTarget.target,
    ok: parseTarget.check(t.parseBytes / t.aBytes),
    note: batchNote,
  });
  ctx.row({
    name: `core parse, not validated, ${size} (from bytes)`,
    value: t.parseNoValidate,
    unit: 'ms cpu',
    baseline: t.aBytes,
    ratio: t.parseNoValidate / t.aBytes,
    note: batchNote,
  });

  ctx.log(`${size}: timing open (${runs} rounds)`);
  const hasIndex = hasEnvelopeIndex(core as Record<string, unknown>);
  const hasTail = hasTailScreen(core as Record<string, unknown>);
  // The stored index as the reader keeps it beside the session (written once here, outside the timing).
  const scratch = mkdtempSync(join(tmpdir(), 'rho-core-bench-'));
  const indexPath = join(scratch, 'session.idx');
  writeFileSync(
    indexPath,
    encodeEnvelopeIndex(
      core.indexEnvelopes(bytes),
      fingerprintOf(bytes.length, (a, b) => bytes.subarray(a, b)),
    ),
  );
  for (const full of [false, true])
    if (!isDeepStrictEqual(reopenScreen(indexPath, file, bytes.length, full), expectedScreen))
      throw new Error("reopened last screen differs from the tail of parse's branch");
  const timings = await compare(
    {
      b: () => piOpen(dec.decode(bytes)),
      open: () => coreOpen(bytes),
      ...(hasTail ? { screen: () => lastScreen(core as Record<string, unknown>, bytes) } : {}),
      ...(hasIndex ? { screenFull: () => lastScreenFull(core as Record<string, unknown>, bytes) } : {}),
    },
    runs,
  );
  // The reopens are timed in a round of their own: interleaved with pi's open (458 MB of heap at
  // 100 MB), the GC work V8 still does for that heap after the gc() before each run (concurrent
  // sweeping and freeing, on other threads of this process) was counted as the reopen's CPU time.
  const reopens = await compare(
    { reopen: () => reopenScreen(indexPath, file, bytes.length), reopenFull: () => reopenScreen(indexPath, file, bytes.length, true) },
    Math.max(runs, 5),
  );
  rmSync(scratch, { recursive: true, force: true });
  const o = { ...cpuOf(timings), ...cpuOf(reopens) };
  const openTarget = atMost(1, '× (b)');
  ctx.row({ name: `(b) pi parseSessionEntries+buildSessionContext+convertToLlm, ${size}`, value: o.b, unit: 'ms cpu' });
  ctx.row({
    name: `core open: parse+branch+context, ${size}`,
    value: o.open,
    unit: 'ms cpu',
    baseline: o.b,
    ratio: o.open / o.b,
    target: openTarget.target,
    ok: openTarget.check(o.open / o.b),
  });
  const screenTarget = atMost(0.25, '× (b)');
  const tailNote = tail
    ? `tailScreen read the last ${((bytes.length - tail.readFrom) / MB).toFixed(2)} MB`
    : 'tailScreen gave up on this file: the full index was used';
  ctx.row({
    name: `core last screen, tail-first (tailScreen: lines read back from the end + last ${SCREEN_ENTRIES} bodies), ${size}`,
    value: hasTail ? o.screen : NaN,
    unit: 'ms cpu',
    baseline: o.b,
    ratio: hasTail ? o.screen / o.b : undefined,
    target: screenTarget.target,
    ok: hasTail ? screenTarget.check(o.screen / o.b) : undefined,
    note: hasTail ? tailNote : 'not measured: src/core exports no tailScreen',
  });
  ctx.row({
    name: `core last screen through the full envelope index (indexEnvelopes + last ${SCREEN_ENTRIES} bodies), ${size}`,
    value: hasIndex ? o.screenFull : NaN,
    unit: 'ms cpu',
    baseline: o.b,
    note: hasIndex ? undefined : 'not measured: src/core exports no indexEnvelopes',
  });
  const reopenTarget = atMost(0.05, '× (b)');
  ctx.row({
    name: `core reopen from the stored envelope index (storedScreen: index file + last ${SCREEN_ENTRIES} bodies read from the session file), ${size}`,
    value: o.reopen,
    unit: 'ms cpu',
    baseline: o.b,
    ratio: o.reopen / o.b,
    target: reopenTarget.target,
    ok: reopenTarget.check(o.reopen / o.b),
  });
  ctx.row({
    name: `core reopen decoding the whole stored index (decodeEnvelopeIndex + branchOfIndex + bodies, as the reader's source), ${size}`,
    value: o.reopenFull,
    unit: 'ms cpu',
    baseline: o.b,
  });
  ctx.row({ name: `core open throughput (wall clock), ${size}`, value: bytes.length / MB / (timings.open.wall / 1000), unit: 'MB/s' });

  ctx.log(`${size}: peak memory (child processes${sizeMb >= 50 ? '' : ', median of 3'})`);
  const memTarget = atMost(3, '× file');
  for (const [task, label] of [
    ['core-open', 'core open (the file read 1 MB at a time and parsed as it comes: sessionParser, as parseBlob in the worker)'],
    ['core-open-whole', 'core open from the whole file in memory (its bytes held whole, then parsed)'],
    ['pi-open', '(b) pi open'],
    ['json', '(a) JSON.parse lines'],
    ...(hasTail ? [['core-last-screen', 'core last screen (tail-first)']] : []),
    ...(hasIndex ? [['core-last-screen-full', 'core last screen (full envelope index)']] : []),
  ] as const) {
    const m = await measureMemory(task, file, sizeMb >= 50 ? 1 : 3);
    const ratio = m.peakRss / bytes.length;
    ctx.row({
      name: `peak RSS above baseline, vs the file's size: ${label}, ${size}`,
      value: m.peakRss / MB,
      unit: 'MB',
      baseline: bytes.length / MB,
      ratio,
      ...(task === 'core-open' ? { target: memTarget.target, ok: memTarget.check(ratio) } : {}),
      note:
        task === 'core-open'
          ? `peak ${(m.peakRss / MB).toFixed(0)} MB over a ${(m.baselineRss / MB).toFixed(0)} MB baseline; heap after ${(m.heapUsed / MB).toFixed(0)} MB`
          : undefined,
    });
  }
}

export default {
  name: 'core',
  description: 'parse / open / last screen / peak memory of generated sessions vs JSON.parse and pi',
  defaultSizes: [10, 100],
  async run(ctx) {
    for (const s of ctx.sizes ?? [10, 100]) await runSize(ctx, s);
  },
} satisfies BenchSuite;
