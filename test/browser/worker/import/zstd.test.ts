// A Codex `rollout-….jsonl.zst` dropped on the real worker in Chromium: fzstd (pure JavaScript, no
// WebAssembly, no Node built-ins) decodes it inside the worker, and the import goes on with the
// JSONL it held (named without `.zst`); a cut stream is rejected by name, nothing stored.
import { afterEach, expect, test } from 'vitest';
import { commands } from 'vitest/browser';
import { freshRoot, namesIn, removeRoot, startWorker } from '../../helpers.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const NAME = 'h-morishita-esol-devenv-v0.104.0-spawn-child.jsonl';

test('a .jsonl.zst is unpacked in the worker; a cut one is rejected naming zstd', async () => {
  const root = freshRoot();
  const w = startWorker(root);
  cleanups.push(() => w.stop());
  cleanups.push(() => removeRoot(root));
  const b64 = await commands.readFile(`fixtures/other-agents/codex/${NAME}.zst`, 'base64');
  const packed = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const report = await w.api.importFiles({ files: [new File([packed], `${NAME}.zst`), new File([packed.subarray(0, 2000)], 'cut.jsonl.zst')] });
  expect(report.items[0].name).toBe(NAME);
  expect(report.items[0].reason ?? '').not.toMatch(/zstd/);
  expect(report.items[1]).toMatchObject({ name: 'cut.jsonl.zst', outcome: 'rejected' });
  expect(report.items[1].reason).toMatch(/^not a readable zstd file/);
  expect(await namesIn(root, 'spool')).toEqual([]);
});
