// The engine in this process over a real S3 server (s3rver on loopback), two devices with
// in-memory copies: tampered and foreign objects are refused and change nothing; the space holds
// no plaintext; deleting moves to the trash elsewhere; consolidation keeps the space bounded and
// never removes what another device has not read.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Encrypter } from 'age-encryption';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEngine, createSpace, newIdentity, parsePackName, ROOT, type SpaceKeys, spaceKeys, type Transport } from '../../src/sync/index.ts';
import { s3Transport } from '../../src/sync/transports/s3.ts';
import { type MemoryLocal, memoryLocal, memoryState } from './memory-local.ts';
import { type S3Server, startS3 } from './servers.ts';

const FIXTURE = readFileSync(new URL('../../fixtures/real/frinfo702-dotfiles-subagent-parent.jsonl', import.meta.url));
const ID = '019e62c3-5249-7057-9390-c72853be72e9';

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.stop();
});

interface Dev {
  local: MemoryLocal;
  round: () => ReturnType<ReturnType<typeof createEngine>['round']>;
}

async function space(prefix: string, consolidateAfter?: number): Promise<{ transport: Transport; keys: SpaceKeys; dev: (name: string) => Dev }> {
  const transport = s3Transport(s3.settings(prefix));
  const keys = await spaceKeys(await newIdentity());
  await createSpace(transport, keys, 1);
  const dev = (name: string): Dev => {
    const local = memoryLocal();
    const engine = createEngine({ transport, keys, local, state: memoryState(), deviceName: name, consolidateAfter });
    return { local, round: () => engine.round() };
  };
  return { transport, keys, dev };
}

const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

describe('sync engine over S3', () => {
  test('a tampered object and a foreign one are refused by name and nothing of theirs is applied; the rest still applies', async () => {
    const { transport, dev } = await space('tamper/');
    const a = dev('laptop');
    const b = dev('phone');
    a.local.write(ID, ID, FIXTURE);
    await a.round();
    await b.round();
    expect(text(b.local.copies.get(ID)!.bytes)).toBe(text(FIXTURE));

    const earlier = new Set((await transport.list(ROOT)).map((o) => o.name));
    a.local.write(ID, ID, '{"type":"custom","id":"x1","parentId":null}\n');
    await a.round();
    a.local.write('other', 'other', '{"type":"session","id":"other"}\n');
    await a.round();
    const added = (await transport.list(ROOT)).filter((o) => !earlier.has(o.name)).map((o) => o.name);
    expect(added).toHaveLength(2);
    const latest = added.find((n) => parsePackName(n)!.seq === Math.max(...added.map((x) => parsePackName(x)!.seq)))!;
    const bytes = await transport.get(latest);
    bytes[bytes.length - 10] ^= 1; // one bit flipped inside the encrypted payload
    await transport.put(latest, bytes);
    // an age file to another key, under a name shaped like a pack of this space
    const e = new Encrypter();
    e.addRecipient(await (await import('age-encryption')).identityToRecipient(await newIdentity()));
    const foreign = `${ROOT}0123456789ab/0000000001-${'0'.repeat(32)}`;
    await transport.put(foreign, await e.encrypt('{}'));

    const report = await b.round();
    expect(report.agreed).toBe(false);
    expect(report.refused.map((r) => r.object).sort()).toEqual([foreign, latest].sort());
    for (const r of report.refused)
      expect(r.message).toMatch(/^rs1\/.+: does not open with this space’s key \(tampered, or from another space\); nothing was applied$/);

    await transport.delete(foreign);
    // the append in the untouched pack was applied; the session in the tampered one was not
    expect(text(b.local.copies.get(ID)!.bytes)).toBe(text(a.local.copies.get(ID)!.bytes));
    expect(b.local.copies.has('other')).toBe(false);
    await transport.delete(latest); // the writer's copy is still whole: it sends it again
    await a.round();
    expect((await b.round()).refused).toEqual([]);
    expect(text(b.local.copies.get('other')!.bytes)).toBe('{"type":"session","id":"other"}\n');
  });

  test('every object in the space is opaque: no session id, path, title, text, device name or key', async () => {
    const { keys, dev } = await space('opaque/');
    const a = dev('my-laptop-name');
    a.local.copies.set(ID, { key: ID, bytes: new Uint8Array(FIXTURE), path: '--Users-ken702-ghq--/2026-05-26_x.jsonl' });
    await a.round();
    await dev('phone').round();
    const found: string[] = [];
    const walk = (d: string) => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        if (statSync(p).isDirectory()) walk(p);
        else found.push(p);
      }
    };
    walk(join(s3.directory, s3.bucket, 'opaque'));
    expect(found.length).toBeGreaterThan(2);
    const secrets = [
      ID,
      ID.slice(0, 8),
      '--Users-ken702-ghq--',
      'ken702',
      'frinfo702',
      'dotfiles',
      '"type":"session"',
      'my-laptop-name',
      keys.identity,
      keys.recipient,
      'assistant',
    ];
    for (const file of found) {
      const raw = readFileSync(file);
      const name = file.slice(s3.directory.length);
      for (const s of secrets) {
        expect(raw.includes(Buffer.from(s)), `${name} holds ${s}`).toBe(false);
        expect(name.includes(s), `${name} names ${s}`).toBe(false);
      }
    }
  });

  test('deleting on one device moves the same version to the trash on the other; a copy that grew is kept', async () => {
    const { dev } = await space('trash/');
    const a = dev('laptop');
    const b = dev('phone');
    a.local.write('s1', 's1', '{"type":"session","id":"s1"}\n');
    a.local.write('s2', 's2', '{"type":"session","id":"s2"}\n');
    await a.round();
    await b.round();
    b.local.write('s2', 's2', '{"grew":"on the phone"}\n');
    a.local.remove('s1');
    a.local.remove('s2');
    await a.round();
    const report = await b.round();
    expect(report.applied).toEqual([{ key: 's1', copy: 's1', outcome: 'trashed' }]);
    expect(b.local.trashed.has('s1')).toBe(true);
    expect(b.local.copies.has('s2')).toBe(true);
    await a.round();
    expect(a.local.copies.has('s1')).toBe(false); // not brought back
    expect(text(a.local.copies.get('s2')!.bytes)).toBe('{"type":"session","id":"s2"}\n{"grew":"on the phone"}\n');
  });

  test('a session appended to 120 times costs at most 1.5x its size once consolidated, and the other device never misses a byte', async () => {
    const { transport, dev } = await space('bounded/', 8);
    const a = dev('laptop');
    const b = dev('phone');
    a.local.write(ID, ID, FIXTURE);
    await a.round();
    for (let i = 0; i < 120; i++) {
      a.local.write(ID, ID, `${JSON.stringify({ type: 'custom', id: `e${i}`, parentId: null, data: 'x'.repeat(900) })}\n`);
      await a.round();
      if (i % 7 === 0) {
        await b.round();
        expect(text(b.local.copies.get(ID)!.bytes)).toBe(text(a.local.copies.get(ID)!.bytes));
      }
    }
    await b.round();
    await a.round(); // b's cursor has passed everything: a retires what it consolidated
    await b.round();
    expect(text(b.local.copies.get(ID)!.bytes)).toBe(text(a.local.copies.get(ID)!.bytes));
    const size = a.local.copies.get(ID)!.bytes.length;
    const listed = await transport.list(ROOT);
    const aDevice = new Set(listed.map((o) => parsePackName(o.name)?.device).filter(Boolean));
    const bytesOf = (dev: string) => listed.filter((o) => parsePackName(o.name)?.device === dev).reduce((n, o) => n + o.size, 0);
    const heaviest = Math.max(...[...aDevice].map((d) => bytesOf(d!)));
    expect(heaviest).toBeLessThanOrEqual(1.5 * size);
    // a third device joining now gets the whole session from what is left
    const c = dev('tablet');
    await c.round();
    expect(text(c.local.copies.get(ID)!.bytes)).toBe(text(a.local.copies.get(ID)!.bytes));
  });
});

describe('sync engine cut off mid-round', () => {
  test('a round stopped after its first upload leaves nothing half-applied, and the next round finishes it', { timeout: 120_000 }, async () => {
    const { transport, keys } = await space('cutoff/');
    const local = memoryLocal();
    const state = memoryState();
    for (let i = 0; i < 3; i++) local.write(`s${i}`, `s${i}`, `${'{"type":"session"}\n'}${'z'.repeat(6 * 1024 * 1024)}\n`); // 3 packs' worth
    let puts = 0;
    const dying: Transport = {
      ...transport,
      put: async (name, bytes, signal) => {
        if (++puts > 1) throw new Error('the tab was closed');
        await transport.put(name, bytes, signal);
      },
    };
    await expect(createEngine({ transport: dying, keys, local, state, deviceName: 'laptop' }).round()).rejects.toThrow('the tab was closed');
    const other = memoryLocal();
    const reader = createEngine({ transport, keys, local: other, state: memoryState(), deviceName: 'phone' });
    const partial = await reader.round();
    // what arrived is whole: every copy there is a prefix of the laptop's, cut at a segment's end
    for (const [id, c] of other.copies) expect(text(local.copies.get(id)!.bytes).startsWith(text(c.bytes))).toBe(true);
    expect(partial.refused).toEqual([]);
    await createEngine({ transport, keys, local, state, deviceName: 'laptop' }).round();
    expect((await reader.round()).agreed).toBe(true);
    for (const [id, c] of local.copies) expect(text(other.copies.get(id)!.bytes)).toBe(text(c.bytes));
  });
});
