// The format's pure parts: every object opens with the `age` command line and the space key (no
// lock-in); a pack's name is the MAC of its content; prefix ids agree whether computed at once or
// grown block by block; pairing links open with their code only.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { nodeSealPool } from '../../src/cli/seal-workers.ts';
import { newIdentity, openPairingLink, pairingLink, spaceKeys, type PairingPayload } from '../../src/sync/index.ts';
import { openPack, packName, seal } from '../../src/sync/envelope.ts';
import { decodePack, encodePack, type PackHeader } from '../../src/sync/pack.ts';
import { BLOCK, prefixIdOf, prefixIds } from '../../src/sync/prefix.ts';

const header = (over: Partial<PackHeader> = {}): PackHeader => ({
  device: 'aaaaaaaaaaaa',
  seq: 3,
  at: 1,
  name: 'laptop',
  cursors: {},
  segments: [{ key: 's', from: 0, to: 5, base: 'b', id: 'i' }],
  trash: [],
  ...over,
});

describe('sync format', () => {
  test('a sealed pack opens with `age -d -i <space key>` and reads back as written', async () => {
    const identity = await newIdentity();
    const keys = await spaceKeys(identity);
    const plain = encodePack(header(), [new TextEncoder().encode('hello')]);
    const dir = mkdtempSync(join(tmpdir(), 'rho-age-'));
    writeFileSync(join(dir, 'key.txt'), `${identity}\n`, { mode: 0o600 });
    writeFileSync(join(dir, 'object'), await seal(keys, plain));
    const age = spawnSync('age', ['-d', '-i', join(dir, 'key.txt'), join(dir, 'object')]);
    expect(age.status, age.stderr.toString()).toBe(0);
    expect(Buffer.from(age.stdout).equals(Buffer.from(plain))).toBe(true);
    const pack = decodePack(new Uint8Array(age.stdout));
    expect(new TextDecoder().decode(pack.segments[0].bytes)).toBe('hello');
  });

  test('packs sealed by the pool of worker threads open with `age -d` too, each as written, in any number at once', async () => {
    const identity = await newIdentity();
    const keys = await spaceKeys(identity);
    const dir = mkdtempSync(join(tmpdir(), 'rho-age-'));
    writeFileSync(join(dir, 'key.txt'), `${identity}\n`, { mode: 0o600 });
    const plains = Array.from({ length: 5 }, (_, i) => encodePack(header({ seq: i }), [new Uint8Array(70_000 * (i + 1)).fill(97 + i)]));
    const pool = nodeSealPool(2);
    try {
      // more packs than workers: some wait for a free one; a copy is sent, so the caller's bytes stay
      const sealed = await Promise.all(plains.map((p) => pool.seal(keys.recipient, p.slice())));
      sealed.forEach((bytes, i) => {
        writeFileSync(join(dir, `object${i}`), bytes);
        const age = spawnSync('age', ['-d', '-i', join(dir, 'key.txt'), join(dir, `object${i}`)]);
        expect(age.status, age.stderr.toString()).toBe(0);
        expect(Buffer.from(age.stdout).equals(Buffer.from(plains[i]))).toBe(true);
      });
    } finally {
      pool.close();
    }
  });

  test("a pack's name is bound to its content, its device and its seq", async () => {
    const keys = await spaceKeys(await newIdentity());
    const plain = encodePack(header(), [new TextEncoder().encode('hello')]);
    const name = await packName(keys, 'aaaaaaaaaaaa', 3, plain);
    expect(name).toMatch(/^rs1\/aaaaaaaaaaaa\/0000000003-[0-9a-f]{32}$/);
    const sealed = await seal(keys, plain);
    expect(await openPack(keys, name, sealed)).toEqual(plain);
    await expect(openPack(keys, name.replace('0000000003', '0000000004'), sealed)).rejects.toThrow(/does not match its name/);
    await expect(openPack(keys, name.replace('rs1/aaaaaaaaaaaa', 'rs1/bbbbbbbbbbbb'), sealed)).rejects.toThrow(/does not match its name/);
    const other = encodePack(header({ name: 'someone else' }), [new TextEncoder().encode('hello')]);
    await expect(openPack(keys, name, await seal(keys, other))).rejects.toThrow(/does not match its name/);
  });

  test('a pack whose segments run past its end, or with bytes after them, is refused', () => {
    const bytes = encodePack(header(), [new TextEncoder().encode('hell')]);
    expect(() => decodePack(bytes)).toThrow(/runs past the end/);
    expect(() => decodePack(encodePack(header(), [new TextEncoder().encode('hello!')]))).toThrow(/bytes after the last segment/);
  });

  test('prefix ids: grown block by block from a cache equal the ids of the whole bytes, and follow the documented definition', async () => {
    const bytes = new Uint8Array(2 * BLOCK + 12_345).map((_, i) => (i * 31 + (i >> 9)) & 255);
    const read = async (s: number, e: number) => bytes.slice(s, e);
    const sizes = [0, 1, BLOCK - 1, BLOCK, BLOCK + 7, 2 * BLOCK, bytes.length];
    const first = await prefixIds(read, [BLOCK + 7], undefined);
    const grown = await prefixIds(read, sizes, first.cache);
    for (const size of sizes) expect(grown.ids.get(size), String(size)).toBe(await prefixIdOf(bytes.subarray(0, size)));
    // independent: SHA-256("rs1" ‖ u64 size ‖ H(block)… ‖ H(tail)) with Node's crypto
    const sha = (b: Uint8Array) => createHash('sha256').update(b).digest();
    const size = 2 * BLOCK + 5;
    const u64 = Buffer.alloc(8);
    u64.writeBigUInt64BE(BigInt(size));
    const expected = sha(
      Buffer.concat([Buffer.from('rs1'), u64, sha(bytes.subarray(0, BLOCK)), sha(bytes.subarray(BLOCK, 2 * BLOCK)), sha(bytes.subarray(2 * BLOCK, size))]),
    ).toString('hex');
    expect(await prefixIdOf(bytes.subarray(0, size))).toBe(expected);
    const changed = bytes.slice(0, size);
    changed[10] ^= 1;
    expect(await prefixIdOf(changed)).not.toBe(expected);
  });

  test('a pairing link opens with its code, says so when the code is wrong or missing, and a plain one opens without', async () => {
    const payload: PairingPayload = {
      v: 1,
      space: { kind: 'webdav', url: 'https://dav.example/s/', username: 'u', password: 'p' },
      identity: await newIdentity(),
      from: 'laptop',
    };
    const link = await pairingLink('https://app.example/', payload, 'ABCDE-FGH12');
    expect(link).toMatch(/^https:\/\/app\.example\/#pair=e\.[A-Za-z0-9_-]+$/);
    expect(link).not.toContain('dav.example');
    expect(await openPairingLink(link, 'abcde fgh12')).toEqual(payload);
    await expect(openPairingLink(link, 'ABCDE-FGH13')).rejects.toThrow('This code does not open the link');
    await expect(openPairingLink(link)).rejects.toThrow('This link is locked with a code');
    await expect(openPairingLink(link.slice(0, -20), 'ABCDE-FGH12')).rejects.toThrow(/This code does not open the link|damaged/);
    const plain = await pairingLink('https://app.example/', payload, null);
    expect(await openPairingLink(plain)).toEqual(payload);
    await expect(openPairingLink('https://app.example/')).rejects.toThrow('This is not a pairing link');
  });
});
