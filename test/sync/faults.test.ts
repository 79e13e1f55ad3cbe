// Through a fault proxy (500s, dropped connections, cut-off bodies, slow answers) in front of a real
// WebDAV server, two devices that both wrote while apart converge: every session on both, both
// versions of the one they both appended to, not a byte lost. Rounds that fail are simply run again.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEngine, createSpace, newIdentity, type RoundReport, spaceKeys, transportFor } from '../../src/sync/index.ts';
import { memoryLocal, memoryState } from './memory-local.ts';
import { type DavServer, type FaultProxy, startFaultProxy, startWebDav } from './servers.ts';

let dav: DavServer;
let proxy: FaultProxy;
beforeAll(async () => {
  dav = await startWebDav();
  proxy = await startFaultProxy(dav.url, ['pass', '500', 'pass', 'drop', 'pass', 'truncate', 'pass', 'slow', 'pass', 'pass'], 200);
});
afterAll(async () => {
  await proxy?.stop();
  await dav?.stop();
});

const line = (o: Record<string, unknown>) => `${JSON.stringify(o)}\n`;
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

describe('sync through a faulty connection', () => {
  test('both devices converge and every byte written on either is on both', { timeout: 240_000 }, async () => {
    const settings = { kind: 'webdav' as const, url: proxy.url, username: dav.username, password: dav.password };
    const keys = await spaceKeys(await newIdentity());
    const transport = transportFor(settings);
    for (let i = 0; ; i++) {
      try {
        await createSpace(transport, keys, 1);
        break;
      } catch (error) {
        if (i > 5) throw error;
      }
    }
    const device = (name: string) => {
      const local = memoryLocal();
      return { local, engine: createEngine({ transport: transportFor(settings), keys, local, state: memoryState(), deviceName: name }) };
    };
    const a = device('laptop');
    const b = device('phone');
    const shared = line({ type: 'session', id: 'shared' }) + line({ type: 'message', id: 'm0', parentId: null, text: 'x'.repeat(70_000) });
    a.local.write('shared', 'shared', shared);
    for (let i = 0; i < 6; i++) a.local.write(`a${i}`, `a${i}`, line({ type: 'session', id: `a${i}` }) + 'a'.repeat(20_000 * i) + '\n');
    for (let i = 0; i < 4; i++) b.local.write(`b${i}`, `b${i}`, line({ type: 'session', id: `b${i}` }) + 'b'.repeat(30_000 * i) + '\n');

    const roundsUntilAgreed = async (max: number) => {
      for (let i = 0; i < max; i++) {
        const reports: (RoundReport | null)[] = [];
        for (const d of [a, b]) reports.push(await d.engine.round().catch(() => null));
        const same =
          JSON.stringify([...a.local.copies.values()].map((c) => text(c.bytes)).sort()) ===
          JSON.stringify([...b.local.copies.values()].map((c) => text(c.bytes)).sort());
        if (reports.every((r) => r?.agreed) && same) return i + 1;
      }
      throw new Error(`no agreement after ${max} rounds`);
    };
    await roundsUntilAgreed(12);
    expect(text(b.local.copies.get('shared')!.bytes)).toBe(shared);

    // apart: both append to the shared session, each adds a session of its own
    const fromA = line({ type: 'message', id: 'ma', parentId: 'm0', text: 'laptop' });
    const fromB = line({ type: 'message', id: 'mb', parentId: 'm0', text: 'phone' });
    a.local.write('shared', 'shared', fromA);
    b.local.write('shared', 'shared', fromB);
    a.local.write('late-a', 'late-a', line({ type: 'session', id: 'late-a' }));
    b.local.write('late-b', 'late-b', line({ type: 'session', id: 'late-b' }));
    await roundsUntilAgreed(12);

    const expected = [
      shared + fromA,
      shared + fromB,
      ...Array.from({ length: 6 }, (_, i) => line({ type: 'session', id: `a${i}` }) + 'a'.repeat(20_000 * i) + '\n'),
      ...Array.from({ length: 4 }, (_, i) => line({ type: 'session', id: `b${i}` }) + 'b'.repeat(30_000 * i) + '\n'),
      line({ type: 'session', id: 'late-a' }),
      line({ type: 'session', id: 'late-b' }),
    ].sort();
    for (const d of [a, b]) expect([...d.local.copies.values()].map((c) => text(c.bytes)).sort()).toEqual(expected);
    expect(text(a.local.copies.get('shared')!.bytes)).toBe(shared + fromA); // each kept its own, the other beside it
    expect(text(b.local.copies.get('shared')!.bytes)).toBe(shared + fromB);
    for (const fault of ['500', 'drop', 'truncate', 'slow'] as const) expect(proxy.counts[fault], fault).toBeGreaterThan(0);
  });
});
