// Sharing in Chromium's real worker with a real OPFS store: secretlint's preset and the age
// library run there (no Node built-ins, no WebAssembly), every planted secret is found, a cleaned
// copy holds none, and an age copy imports back only with its password, beside the original.
import { afterEach, expect, test } from 'vitest';
import { corpus, needles } from '../../../worker/share/corpus.ts';
import { freshRoot, removeRoot, startWorker, textOf } from '../../helpers.ts';

const { text, plants } = corpus();
let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

function start() {
  const root = freshRoot();
  const w = startWorker(root);
  cleanup.push(w.stop, () => removeRoot(root));
  return w.api;
}

test('review and a cleaned copy in the worker: every plant found, none left', async () => {
  const api = start();
  await api.importFiles({ files: [new File([text], 'corpus.jsonl')] });
  const review = await api.reviewShare({ id: 'corpus-1', scope: 'session' });
  for (const p of plants)
    expect(
      review.hits.some((h) => p.kinds.includes(h.kind) && p.value.startsWith(h.match.slice(0, 30))),
      p.name,
    ).toBe(true);
  expect(review.hits.filter((h) => h.rule?.startsWith('@secretlint/')).map((h) => h.kind)).toEqual(
    expect.arrayContaining(['aws', 'github', 'openai', 'anthropic', 'slack', 'stripe']),
  );
  const out = await api.exportShared({ id: 'corpus-1', format: 'jsonl', scope: 'session' });
  const cleaned = await textOf(out.blob);
  expect(needles(plants).filter((n) => cleaned.includes(n))).toEqual([]);
});

test('an age copy: a wrong password stores nothing, the right one imports it beside the original', async () => {
  const api = start();
  await api.importFiles({ files: [new File([text], 'corpus.jsonl')] });
  // scrypt at a low work factor (2^10): the round trip is what is tested here, age's default in test/worker/share/age.test.ts.
  const sealed = await api.exportShared({ id: 'corpus-1', format: 'jsonl', scope: 'session', passphrase: 'tide pool', workFactor: 10 });
  expect(sealed.name).toMatch(/\.shared\.jsonl\.age$/);
  const head = await textOf(sealed.blob.slice(0, 200));
  expect(head.slice(0, 22)).toBe('age-encryption.org/v1\n');
  expect(head).toMatch(/\n-> scrypt \S+ 10\n/);
  const file = { path: sealed.name, file: new File([sealed.blob], sealed.name) };
  await expect(api.importEncrypted({ files: [file], passphrase: 'wrong' })).rejects.toThrow(/Wrong password for .*\.age/);
  expect((await api.listSessions({})).map((s) => s.id)).toEqual(['corpus-1']);
  const report = await api.importEncrypted({ files: [file], passphrase: 'tide pool' });
  expect(report.items[0]).toMatchObject({ outcome: 'variant', id: 'corpus-1~2' });
  expect(await textOf((await api.exportSession({ id: 'corpus-1' })).blob)).toBe(text);
});
