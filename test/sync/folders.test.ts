// The command line's agent-folder side (src/cli/folder-local.ts) under the engine, in this process,
// over a real S3 server: two laptops' pi folders, both offline, both continue the same session with
// pi 0.73.1's own SessionManager; after syncing, each folder holds both versions whole — its own
// file as its pi wrote it, the other one beside it — and nothing was truncated or written over.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { folderLocal } from '../../src/cli/folder-local.ts';
import { createEngine, createSpace, newIdentity, spaceKeys } from '../../src/sync/index.ts';
import { s3Transport } from '../../src/sync/transports/s3.ts';
import { filesUnder } from './cli-helpers.ts';
import { memoryState } from './memory-local.ts';
import { type S3Server, startS3 } from './servers.ts';

const FIXTURE = new URL('../../fixtures/real/frinfo702-dotfiles-subagent-parent.jsonl', import.meta.url);
const PATH = '--Users-ken702-ghq-github.com-frinfo702-dotfiles--/2026-05-26T05-30-28-297Z_019e62c3-5249-7057-9390-c72853be72e9.jsonl';

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.stop();
});

function piAppends(file: string, text: string): string {
  return SessionManager.open(file, dirname(file)).appendMessage({ role: 'user', content: [{ type: 'text', text }], timestamp: 1_780_000_000_000 });
}

describe('agent folders synced', () => {
  test('both offline append to the same session: both versions are kept whole in both folders, nothing written over', { timeout: 180_000 }, async () => {
    const transport = s3Transport(s3.settings('folders/'));
    const keys = await spaceKeys(await newIdentity());
    await createSpace(transport, keys, 1);
    const base = mkdtempSync(join(tmpdir(), 'rho-folders-'));
    const laptop = { folder: join(base, 'laptop') };
    const desk = { folder: join(base, 'desk') };
    mkdirSync(dirname(join(laptop.folder, PATH)), { recursive: true });
    mkdirSync(desk.folder, { recursive: true });
    copyFileSync(FIXTURE, join(laptop.folder, PATH));
    const engineOf = (folder: string, name: string) => createEngine({ transport, keys, local: folderLocal([folder]), state: memoryState(), deviceName: name });
    const a = engineOf(laptop.folder, 'laptop');
    const b = engineOf(desk.folder, 'desk');
    await a.round();
    await b.round();
    expect(readFileSync(join(desk.folder, PATH)).equals(readFileSync(FIXTURE))).toBe(true);

    const laptopEntry = piAppends(join(laptop.folder, PATH), 'laptop, offline');
    const deskEntry = piAppends(join(desk.folder, PATH), 'desk, offline');
    const laptopBytes = readFileSync(join(laptop.folder, PATH));
    const deskBytes = readFileSync(join(desk.folder, PATH));
    await a.round();
    await b.round();
    expect((await a.round()).agreed).toBe(true);
    for (const [d, own] of [
      [laptop, laptopBytes],
      [desk, deskBytes],
    ] as const) {
      const files = filesUnder(d.folder);
      expect(files.size).toBe(2);
      expect([...files.values()].map((b) => b.toString('utf8')).sort()).toEqual([laptopBytes.toString('utf8'), deskBytes.toString('utf8')].sort());
      expect(files.get(PATH)!.equals(own)).toBe(true); // its own file, as its pi wrote it
    }
    const variant = [...filesUnder(laptop.folder).keys()].find((p) => p !== PATH)!;
    expect(variant).toMatch(/\.sync-[0-9a-f]{6}\.jsonl$/);
    const branch = SessionManager.open(join(laptop.folder, variant), laptop.folder)
      .getBranch()
      .map((e) => e.id);
    expect(branch).toContain(deskEntry);
    expect(branch).not.toContain(laptopEntry);

    // pi continues the variant on the laptop: the append reaches the desk's copy of that version
    const more = piAppends(join(laptop.folder, variant), 'continued on the laptop');
    await a.round();
    await b.round();
    const deskFiles = filesUnder(desk.folder);
    expect(deskFiles.size).toBe(2);
    expect(deskFiles.get(PATH)!.toString('utf8')).toBe(readFileSync(join(laptop.folder, variant), 'utf8'));
    expect(
      SessionManager.open(join(desk.folder, PATH), desk.folder)
        .getBranch()
        .map((e) => e.id),
    ).toContain(more);
  });
});
