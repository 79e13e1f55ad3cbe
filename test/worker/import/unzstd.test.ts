// Codex's `.jsonl.zst` rollouts: fzstd (pure JavaScript) decodes them in the worker. The .zst
// fixture was made with the zstd CLI (`zstd -19`) from the committed .jsonl beside it.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { binaryKind } from '../../../src/core/read/magic.ts';
import { createApi } from '../../../src/worker/api.ts';
import { sniff } from '../../../src/worker/import/unpack.ts';
import { isZstd, unzstd } from '../../../src/worker/import/unzstd.ts';
import { collect, memoryStore } from '../../storage/helpers.ts';

const DIR = new URL('../../../fixtures/other-agents/codex/', import.meta.url).pathname;
const NAME = 'h-morishita-esol-devenv-v0.104.0-spawn-child.jsonl';
const plain = new Uint8Array(readFileSync(DIR + NAME));
const packed = new Uint8Array(readFileSync(`${DIR + NAME}.zst`));

describe('zstd', () => {
  test('is told by its magic bytes', () => {
    expect(isZstd(packed)).toBe(true);
    expect(isZstd(plain)).toBe(false);
    expect(sniff(packed.subarray(0, 4))).toBe('zstd');
    expect(binaryKind(packed)).toBe('a zstd-compressed file');
  });

  test('decodes to the original bytes, read whole or a few KiB at a time', async () => {
    const same = (a: Uint8Array) => Buffer.from(a).equals(Buffer.from(plain));
    expect(same(await collect(unzstd(new Blob([packed]))))).toBe(true);
    expect(same(await collect(unzstd(new Blob([packed]), undefined, 4096)))).toBe(true);
  });

  test('a stream cut short or corrupt throws', async () => {
    await expect(collect(unzstd(new Blob([packed.subarray(0, packed.length >> 1)])))).rejects.toThrow();
    const bad = packed.slice();
    bad.fill(0xff, 20, 400);
    await expect(collect(unzstd(new Blob([bad])))).rejects.toThrow();
  });

  test('a dropped rollout-….jsonl.zst is unpacked to its JSONL; a broken one is rejected by name', async () => {
    const { store } = memoryStore({ now: () => 1_700_000_000_000 });
    const api = createApi({ store, now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => 'abcdef01' });
    const files = [new File([packed], `${NAME}.zst`), new File([packed.subarray(0, 1000)], 'cut.jsonl.zst')];
    const report = await api.importFiles({ files });
    expect(report.items[0].name).toBe(NAME);
    expect(report.items[0].reason ?? '').not.toMatch(/zstd/);
    expect(report.items[1]).toMatchObject({ name: 'cut.jsonl.zst', outcome: 'rejected' });
    expect(report.items[1].reason).toMatch(/^not a readable zstd file/);
  });
});
