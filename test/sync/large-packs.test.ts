// Large packs over real servers (s3rver and webdav-server on loopback): a device learns what the
// space holds from each large pack's first bytes (a ranged GET), reads each pack whole once, to
// apply it; a pack whose segments were changed after its header is refused by name when applied,
// with nothing of it applied; a round cut off after learning the space does not read it again.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEngine, createSpace, newIdentity, ROOT, type SpaceKeys, spaceKeys, type SyncEvent, type Transport } from '../../src/sync/index.ts';
import { s3Transport } from '../../src/sync/transports/s3.ts';
import { webdavTransport } from '../../src/sync/transports/webdav.ts';
import { memoryLocal, memoryState } from './memory-local.ts';
import { type DavServer, type S3Server, startS3, startWebDav } from './servers.ts';

let s3: S3Server;
let dav: DavServer;
beforeAll(async () => {
  [s3, dav] = await Promise.all([startS3(), startWebDav()]);
});
afterAll(async () => {
  await Promise.all([s3?.stop(), dav?.stop()]);
});

/** A session of about `mb` MB whose text does not repeat (random base64 in each entry). */
function session(id: string, mb: number): Uint8Array {
  const lines = [JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-12-01T00:00:00.000Z', cwd: '/p' })];
  let parent: string | null = null;
  for (let i = 0; lines.join('\n').length < mb * 1024 * 1024; i++) {
    const eid = `${id.slice(0, 4)}${String(i).padStart(4, '0')}`;
    lines.push(JSON.stringify({ type: 'message', id: eid, parentId: parent, message: { role: 'user', content: randomBytes(48 * 1024).toString('base64') } }));
    parent = eid;
  }
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

interface Counted extends Transport {
  gets: string[];
  /** Ranged GETs answered in full. */
  heads: string[];
  /** Ranged GETs that failed. */
  headsFailed: string[];
  bytesIn: number;
}

/** The transport with every whole GET and ranged GET recorded, and the bytes they brought. */
function counted(inner: Transport): Counted {
  const t: Counted = {
    ...inner,
    gets: [],
    heads: [],
    headsFailed: [],
    bytesIn: 0,
    async get(name, signal) {
      const b = await inner.get(name, signal);
      t.gets.push(name);
      t.bytesIn += b.length;
      return b;
    },
    async head(name, n, signal) {
      const b = await inner.head!(name, n, signal).catch((error: unknown) => {
        t.headsFailed.push(name);
        throw error;
      });
      t.heads.push(name);
      t.bytesIn += b.length;
      return b;
    },
  };
  return t;
}

const packsIn = async (t: Transport) => (await t.list(ROOT)).filter((o) => o.name !== `${ROOT}space`);

async function twoLargePacks(transport: Transport, keys: SpaceKeys) {
  const big = session('big00000-0000-4000-8000-000000000001', 2);
  const mid = session('mid00000-0000-4000-8000-000000000002', 1.2);
  const laptop = memoryLocal();
  const engine = createEngine({ transport, keys, local: laptop, state: memoryState(), deviceName: 'laptop' });
  laptop.write('big', 'big', big);
  await engine.round();
  const first = (await packsIn(transport)).map((o) => o.name);
  laptop.write('mid', 'mid', mid);
  await engine.round();
  const second = (await packsIn(transport)).map((o) => o.name).filter((n) => !first.includes(n));
  expect(first).toHaveLength(1);
  expect(second).toHaveLength(1);
  return { big, mid, bigPack: first[0], midPack: second[0] };
}

/** A laptop writes two large packs; a new device's first round takes both sessions whole. */
async function newDeviceReceives(transport: Transport) {
  const keys = await spaceKeys(await newIdentity());
  await createSpace(transport, keys, 1);
  const { big, mid, bigPack, midPack } = await twoLargePacks(transport, keys);
  const phoneT = counted(transport);
  const phone = memoryLocal();
  const progress: SyncEvent[] = [];
  const onEvent = (e: SyncEvent) => e.type === 'progress' && progress.push(e);
  const report = await createEngine({ transport: phoneT, keys, local: phone, state: memoryState(), deviceName: 'phone', onEvent }).round();
  expect(report.agreed).toBe(true);
  expect(Buffer.from(phone.copies.get('big')!.bytes).equals(Buffer.from(big))).toBe(true);
  expect(Buffer.from(phone.copies.get('mid')!.bytes).equals(Buffer.from(mid))).toBe(true);
  // the time spent reading packs whole shows as progress through the sessions
  expect(progress.filter((e) => e.type === 'progress' && e.phase === 'apply').map((e) => e.type === 'progress' && `${e.done}/${e.total}`)).toEqual([
    '0/2',
    '1/2',
  ]);
  return { phoneT, bigPack, midPack };
}

const inS3 = () => s3Transport(s3.settings(`large-${randomBytes(4).toString('hex')}/`));

describe('large packs', () => {
  test('over S3, a new device reads the first bytes of each large pack to learn the space, then each pack whole once', async () => {
    const transport = inS3();
    const { phoneT, bigPack, midPack } = await newDeviceReceives(transport);
    const sizes = new Map((await packsIn(transport)).map((o) => [o.name, o.size]));
    // headers from the first bytes, then one whole GET a pack: the space crossed the wire once
    expect(phoneT.heads.filter((n) => n === bigPack || n === midPack).sort()).toEqual([bigPack, midPack].sort());
    expect(phoneT.gets.filter((n) => n === bigPack)).toHaveLength(1);
    expect(phoneT.gets.filter((n) => n === midPack)).toHaveLength(1);
    const packBytes = sizes.get(bigPack)! + sizes.get(midPack)!;
    expect(phoneT.bytesIn).toBeLessThan(packBytes * 1.1);
  }, 60_000);

  test('over a WebDAV server that cuts its ranged answers off (webdav-server 2.6), the packs are read whole, each once', async () => {
    const transport = webdavTransport({ kind: 'webdav', url: dav.url, username: dav.username, password: dav.password });
    const { phoneT, bigPack, midPack } = await newDeviceReceives(transport);
    expect(phoneT.headsFailed).toHaveLength(1); // one try a round, then whole packs
    expect(phoneT.gets.filter((n) => n === bigPack)).toHaveLength(1);
    expect(phoneT.gets.filter((n) => n === midPack)).toHaveLength(1);
  }, 60_000);

  test('a large pack changed after its header is refused by name when applied; the rest applies; put back, it applies', async () => {
    const transport = inS3();
    const keys = await spaceKeys(await newIdentity());
    await createSpace(transport, keys, 1);
    const { big, mid, bigPack } = await twoLargePacks(transport, keys);
    const original = await transport.get(bigPack);
    const changed = original.slice();
    changed[changed.length - 100] ^= 1; // in the last chunk: the header's chunk still opens
    await transport.put(bigPack, changed);

    const phoneT = counted(transport);
    const phone = memoryLocal();
    const engine = createEngine({ transport: phoneT, keys, local: phone, state: memoryState(), deviceName: 'phone' });
    const first = await engine.round();
    expect(phoneT.heads).toContain(bigPack); // its header was taken from its first bytes
    expect(first.agreed).toBe(false);
    expect(first.refused.map((r) => r.object)).toEqual([bigPack]);
    expect(first.refused[0].message).toBe(`${bigPack}: does not open with this space’s key (tampered, or from another space); nothing was applied`);
    expect(phone.copies.has('big')).toBe(false);
    expect(Buffer.from(phone.copies.get('mid')!.bytes).equals(Buffer.from(mid))).toBe(true);

    phoneT.heads.length = 0;
    const again = await engine.round();
    expect(again.refused.map((r) => r.object)).toEqual([bigPack]);
    expect(phoneT.heads).not.toContain(bigPack); // refused before: read whole
    expect(phone.copies.has('big')).toBe(false);

    await transport.put(bigPack, original);
    const healed = await engine.round();
    expect(healed.refused).toEqual([]);
    expect(healed.agreed).toBe(true);
    expect(Buffer.from(phone.copies.get('big')!.bytes).equals(Buffer.from(big))).toBe(true);
  }, 60_000);
});

describe('a first sync cut off', () => {
  test('a round cut off while applying keeps what it learnt: the next round reads no header again and finishes', async () => {
    const transport = s3Transport(s3.settings('cut-large/'));
    const keys = await spaceKeys(await newIdentity());
    await createSpace(transport, keys, 1);
    const { big, mid } = await twoLargePacks(transport, keys);
    const state = memoryState();
    const phone = memoryLocal();
    const create = phone.create;
    phone.create = async () => {
      throw new Error('the tab was closed');
    };
    await expect(createEngine({ transport, keys, local: phone, state, deviceName: 'phone' }).round()).rejects.toThrow(/the tab was closed/);
    expect(phone.copies.size).toBe(0);

    phone.create = create;
    const phoneT = counted(transport);
    const report = await createEngine({ transport: phoneT, keys, local: phone, state, deviceName: 'phone' }).round();
    expect(report.agreed).toBe(true);
    expect(phoneT.heads).toEqual([]);
    expect(Buffer.from(phone.copies.get('big')!.bytes).equals(Buffer.from(big))).toBe(true);
    expect(Buffer.from(phone.copies.get('mid')!.bytes).equals(Buffer.from(mid))).toBe(true);
  }, 60_000);
});
