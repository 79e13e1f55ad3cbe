/**
 * Sync (docs/sync-format.md) against an S3 server on loopback (s3rver in its own process):
 *  - first sync of a library of 1,000 sessions (default 500 MB) through the engine (hash, pack,
 *    age-encrypt, PUT), sealing in this thread and then in a pool of two worker threads (as the
 *    command line and the app do), vs plain unencrypted PUTs of the same bytes, one per session, in
 *    the same run; and vs plain PUTs of the same bytes in 8 MiB objects (the pure cost of encryption);
 *  - the bytes uploaded for one 1 KB append to a 100 MB session (target < 64 KB);
 *  - the space a session appended to 1,000 times takes once consolidated (target ≤ 1.5× its size).
 * `npm run bench -- sync [--sizes <library MB>,<session MB>]` (e.g. `--sizes 50,20` on a busy machine).
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AwsClient } from 'aws4fetch';
import { nodeSealPool } from '../../src/cli/seal-workers.ts';
import { createEngine, createSpace, newIdentity, type SealFn, spaceKeys, type Transport } from '../../src/sync/index.ts';
import { s3Transport } from '../../src/sync/transports/s3.ts';
import { memoryLocal, memoryState } from '../sync/memory-local.ts';
import { S3_KEY, S3_SECRET } from '../sync/servers.ts';
import { atMost, type BenchContext, type BenchSuite } from './harness.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');

async function startChild(): Promise<{ endpoint: string; bucket: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(root, 'test/bench/s3-child.ts')], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((done) => createInterface({ input: child.stdout! }).once('line', done));
  return { ...(JSON.parse(line) as { endpoint: string; bucket: string }), stop: () => child.kill('SIGTERM') };
}

/** A session-like file: a header line, then JSON lines of pseudo-random text, `size` bytes. */
function sessionBytes(id: string, size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  const head = new TextEncoder().encode(`${JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-01-01T00:00:00.000Z', cwd: '/bench' })}\n`);
  out.set(head.subarray(0, size));
  let x = seed | 1;
  for (let i = head.length; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = i % 120 === 119 ? 10 : 97 + ((x >>> 0) % 26);
  }
  return out;
}

function counting(inner: Transport): Transport & { put_bytes: number } {
  const t = {
    ...inner,
    put_bytes: 0,
    put: async (name: string, bytes: Uint8Array, signal?: AbortSignal) => {
      t.put_bytes += bytes.length;
      await inner.put(name, bytes, signal);
    },
  };
  return t;
}

async function run(ctx: BenchContext): Promise<void> {
  const [libraryMb = 500, sessionMb = 100] = ctx.sizes ?? [];
  const server = await startChild();
  try {
    const settings = {
      kind: 's3' as const,
      endpoint: server.endpoint,
      region: 'us-east-1',
      bucket: server.bucket,
      prefix: '',
      accessKeyId: S3_KEY,
      secretAccessKey: S3_SECRET,
    };
    const client = new AwsClient({ accessKeyId: S3_KEY, secretAccessKey: S3_SECRET, service: 's3', region: 'us-east-1', retries: 0 });
    const count = 1000;
    const each = Math.floor((libraryMb * 1024 * 1024) / count);
    ctx.log(`making ${count} sessions of ${each} bytes…`);
    const files = Array.from({ length: count }, (_, i) => sessionBytes(`bench-${i}`, each, i + 1));
    const put = async (key: string, body: Uint8Array) => {
      const res = await client.fetch(`${server.endpoint}/${server.bucket}/${key}`, { method: 'PUT', body: body as BodyInit });
      if (!res.ok) throw new Error(`PUT ${key}: ${res.status}`);
      await res.arrayBuffer();
    };

    ctx.log('plain PUTs, one per session…');
    let t = performance.now();
    for (let i = 0; i < count; i++) await put(`plain/${i}.jsonl`, files[i]);
    const plain = performance.now() - t;

    ctx.log('plain PUTs in 8 MiB objects…');
    t = performance.now();
    let batch: Uint8Array[] = [];
    let size = 0;
    let n = 0;
    const flush = async () => {
      const body = new Uint8Array(size);
      let at = 0;
      for (const b of batch) {
        body.set(b, at);
        at += b.length;
      }
      await put(`plain-packed/${n++}`, body);
      batch = [];
      size = 0;
    };
    for (const f of files) {
      if (size + f.length > 8 * 1024 * 1024 && batch.length) await flush();
      batch.push(f);
      size += f.length;
    }
    if (batch.length) await flush();
    const plainPacked = performance.now() - t;

    // The engine, sealing in this thread, then with a pool of two worker threads (as the command
    // line and the app do): the same library into two fresh spaces, side by side in this run.
    const keys = await spaceKeys(await newIdentity());
    const firstSync = async (prefix: string, seal?: SealFn) => {
      const transport = counting(s3Transport({ ...settings, prefix }));
      await createSpace(transport, keys, 1);
      const local = memoryLocal();
      files.forEach((f, i) => local.copies.set(`bench-${i}`, { key: `bench-${i}`, bytes: f }));
      const engine = createEngine({ transport, keys, local, state: memoryState(), deviceName: 'bench', seal });
      const t0 = performance.now();
      await engine.round();
      return { ms: performance.now() - t0, engine, local, transport };
    };
    ctx.log('first sync through the engine, sealing in this thread…');
    const inThread = await firstSync('space-1/');
    ctx.log('first sync through the engine, sealing in two worker threads…');
    const pool = nodeSealPool(2);
    const pooled = await firstSync('space/', pool.seal);
    const ratio = atMost(1.5, '× (plain PUTs)');
    for (const [how, m] of [
      ['sealed in this thread', inThread.ms],
      ['sealed in 2 worker threads', pooled.ms],
    ] as const)
      ctx.row({
        name: `sync: first sync of ${count} sessions, ${libraryMb} MB (engine, encrypted, ${how})`,
        value: m,
        unit: 'ms',
        baseline: plain,
        ratio: m / plain,
        target: ratio.target,
        ok: ratio.check(m / plain),
      });
    ctx.row({
      name: `sync: the same (2 worker threads) vs plain PUTs in 8 MiB objects`,
      value: pooled.ms,
      unit: 'ms',
      baseline: plainPacked,
      note: `${(pooled.ms / plainPacked).toFixed(2)}× — the cost of hashing and age encryption alone, same number of objects`,
    });
    const { engine, local, transport } = pooled;
    inThread.local.copies.clear();
    files.length = 0;
    local.copies.clear();

    ctx.log(`a ${sessionMb} MB session, then a 1 KB append…`);
    const big = sessionBytes('bench-big', sessionMb * 1024 * 1024, 7);
    local.copies.set('bench-big', { key: 'bench-big', bytes: big });
    await engine.round();
    local.write(
      'bench-big',
      'bench-big',
      sessionBytes('x', 1024, 9).map((b, i) => (i === 1023 ? 10 : b === 10 ? 32 : b)),
    );
    transport.put_bytes = 0;
    await engine.round();
    const up = atMost(64 * 1024, ' bytes');
    ctx.row({
      name: `sync: bytes uploaded for a 1 KB append to a ${sessionMb} MB session`,
      value: transport.put_bytes,
      unit: 'bytes',
      target: up.target,
      ok: up.check(transport.put_bytes),
    });

    ctx.log('a session appended to 1,000 times, another device reading now and then…');
    const spaceT = s3Transport({ ...settings, prefix: 'appends/' });
    await createSpace(spaceT, keys, 1);
    const writer = memoryLocal();
    const reader = memoryLocal();
    const a = createEngine({ transport: spaceT, keys, local: writer, state: memoryState(), deviceName: 'laptop' });
    const b = createEngine({ transport: spaceT, keys, local: reader, state: memoryState(), deviceName: 'phone' });
    writer.write('grown', 'grown', sessionBytes('grown', 100 * 1024, 3));
    for (let i = 0; i < 1000; i++) {
      writer.write('grown', 'grown', `${JSON.stringify({ type: 'custom', id: `e${i}`, parentId: null, data: 'x'.repeat(960) })}\n`);
      await a.round();
      if (i % 50 === 49) await b.round();
    }
    await b.round();
    await a.round();
    const final = writer.copies.get('grown')!.bytes.length;
    const objects = (await spaceT.list('rs1/')).filter((o) => !o.name.endsWith('/space'));
    const laptopId = Object.values((await a.round()).devices).find((d) => d.self)!.id;
    const laptopBytes = objects.filter((o) => o.name.startsWith(`rs1/${laptopId}/`)).reduce((n, o) => n + o.size, 0);
    const bound = atMost(1.5, '× (session size)');
    ctx.row({
      name: 'sync: space used by a session appended to 1,000 times, consolidated',
      value: laptopBytes,
      unit: 'bytes',
      baseline: final,
      ratio: laptopBytes / final,
      target: bound.target,
      ok: bound.check(laptopBytes / final),
    });
    pool.close();
  } finally {
    server.stop();
  }
}

export default {
  name: 'sync',
  description: 'sync: first sync of 1,000 sessions vs plain PUTs; bytes sent for a 1 KB append',
  defaultSizes: [500, 100],
  run,
} satisfies BenchSuite;
