import { afterEach, describe, expect, test } from 'vitest';
import { cdp } from 'vitest/browser';
import { parse } from '../../../src/core/index.ts';
import { freshRoot, namesIn, removeRoot, sessionText, startWorker, textOf } from '../helpers.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function open(root: string) {
  const w = startWorker(root);
  cleanups.push(() => w.stop());
  return w;
}

describe('one writer per session across tabs (Web Locks)', () => {
  test('two workers appending to the same session at once lose nothing', async () => {
    const root = freshRoot();
    cleanups.push(() => removeRoot(root));
    const a = open(root);
    const b = open(root);
    await a.api.importFiles({ files: [new File([sessionText('shared', 3)], 's.jsonl')] });
    const targets = ['e0000000', 'e0000001', 'e0000002', 'e0000003', 'e0000004', 'e0000005'];
    await Promise.all(
      targets.flatMap((t, i) => [
        a.api.labelEntry({ id: 'shared', entryId: t, label: `a${i}` }),
        b.api.labelEntry({ id: 'shared', entryId: t, label: `b${i}` }),
      ]),
    );
    const bytes = await textOf((await b.api.exportSession({ id: 'shared' })).blob);
    const parsed = parse(bytes);
    expect(parsed.problems).toEqual([]);
    const labels = parsed.entries.filter((e) => e.type === 'label').map((e) => e.label as string);
    expect(labels.sort()).toEqual([...targets.map((_, i) => `a${i}`), ...targets.map((_, i) => `b${i}`)].sort());
    // Every label hangs off the one before it: the writers took turns, each appending after the real leaf.
    const chain = parsed.entries.slice(6);
    chain.forEach((e, i) => i > 0 && expect(e.parentId).toBe(chain[i - 1].id));
    // Both workers list the session with the final size.
    const size = new TextEncoder().encode(bytes).length;
    expect((await a.api.listSessions({}))[0].size).toBe(size);
    expect((await b.api.listSessions({}))[0].size).toBe(size);
  });

  test('the same file imported in two workers at once is added once and unchanged once', async () => {
    const root = freshRoot();
    cleanups.push(() => removeRoot(root));
    const a = open(root);
    const b = open(root);
    const text = sessionText('twice', 200);
    const [ra, rb] = await Promise.all([
      a.api.importFiles({ files: [new File([text], 't.jsonl')] }),
      b.api.importFiles({ files: [new File([text], 't.jsonl')] }),
    ]);
    expect([ra.items[0].outcome, rb.items[0].outcome].sort()).toEqual(['added', 'unchanged']);
    expect(await namesIn(root, 'sessions')).toEqual(['twice.jsonl']);
  });
});

describe('quota (CDP Storage.overrideQuotaForOrigin)', () => {
  test('a write over quota leaves no partial file, the old bytes, and a correct index', async () => {
    const root = freshRoot();
    cleanups.push(() => removeRoot(root));
    const session = cdp();
    const origin = location.origin;
    const w = open(root);
    await w.api.importFiles({ files: [new File([sessionText('fits', 2)], 'f.jsonl')] });
    const before = await w.api.listSessions({});
    const { usage } = await w.api.storageInfo({});
    await session.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 64 * 1024 });
    cleanups.push(() => session.send('Storage.overrideQuotaForOrigin', { origin }));
    const big = sessionText('toobig', 1500);
    await expect(w.api.importFiles({ files: [new File([big], 'big.jsonl')] })).rejects.toMatchObject({ code: 'quota-exceeded' });
    // An update that does not fit: the stored file keeps its old bytes.
    const grown = sessionText('fits', 1500);
    await expect(w.api.importFiles({ files: [new File([grown], 'f.jsonl')] })).rejects.toMatchObject({ code: 'quota-exceeded' });
    expect(await textOf((await w.api.exportSession({ id: 'fits' })).blob)).toBe(sessionText('fits', 2));
    expect(await namesIn(root, 'sessions')).toEqual(['fits.jsonl']);
    expect(await namesIn(root, 'tmp')).toEqual([]);
    expect(await w.api.listSessions({})).toEqual(before);
    // A fresh worker reads the same, correct index.
    const again = open(root);
    expect(await again.api.listSessions({})).toEqual(before);
  });
});
