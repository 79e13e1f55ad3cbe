// Bad input in real Chromium: every case of fixtures/bad/cases.json imported through the
// real worker into OPFS (outcome, line, reason), sessions stored before stay byte-identical, no
// temp or scratch file is left, a fresh worker lists the same index; big generated cases; and a
// full disk (quota lowered through CDP) during a multi-file, gzip and zip import.
import { strToU8, zipSync } from 'fflate';
import { afterEach, describe, expect, test } from 'vitest';
import { cdp, commands } from 'vitest/browser';
import { BROWSER_SIZES, deepNesting, hugeLine, longChain } from '../../core/read/bad-input-big.ts';
import { freshRoot, namesIn, removeRoot, sessionText, startWorker } from '../helpers.ts';

interface Case {
  file: string;
  core: unknown;
  import: {
    outcome?: string;
    line?: number;
    reason?: string;
    problems?: number;
    title?: string;
    items?: Array<{ name?: string; outcome: string; line?: number; reason?: string }>;
  };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function open(root = freshRoot()) {
  const w = startWorker(root);
  cleanups.push(() => w.stop());
  cleanups.push(() => removeRoot(root));
  return { root, ...w };
}

// Read through vitest's server (a fetch from vite's dev server would get .gz files decompressed).
async function cases(): Promise<Case[]> {
  return JSON.parse(await commands.readFile('fixtures/bad/cases.json', 'utf8')).cases;
}
async function fileOf(name: string): Promise<File> {
  const b64 = await commands.readFile(`fixtures/bad/${name}`, 'base64');
  return new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name);
}
const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

async function storePrecious(api: ReturnType<typeof startWorker>['api']) {
  await api.importFiles({ files: [new File([sessionText('precious-1', 3)], 'p1.jsonl'), new File([sessionText('precious-2', 1)], 'p2.jsonl')] });
  return Promise.all(['precious-1', 'precious-2'].map(async (id) => bytesOf((await api.exportSession({ id })).blob)));
}
async function expectPrecious(api: ReturnType<typeof startWorker>['api'], before: Uint8Array[]) {
  for (const [i, id] of ['precious-1', 'precious-2'].entries()) expect(same(await bytesOf((await api.exportSession({ id })).blob), before[i]), id).toBe(true);
}
async function expectNoLeftovers(root: string) {
  expect(await namesIn(root, 'tmp')).toEqual([]);
  expect(await namesIn(root, 'spool')).toEqual([]);
}

describe('bad input through a real import in Chromium (OPFS)', () => {
  test('every case in one import: its outcome, line and reason; stored sessions unchanged; nothing left over; index rebuilt the same', async () => {
    const { root, api } = open();
    const all = await cases();
    const before = await storePrecious(api);
    const report = await api.importFiles({ files: await Promise.all(all.map((c) => fileOf(c.file))) });
    for (const c of all) {
      const mine = report.items.filter((i) => i.name === c.file || i.name.startsWith(`${c.file}/`));
      const want = c.import.items ?? [{ name: c.file, ...c.import }];
      expect(
        mine.map((i) => (i.outcome === 'unchanged' ? 'added' : i.outcome)),
        c.file,
      ).toEqual(want.map((w) => w.outcome));
      want.forEach((w, k) => {
        if (w.name) expect(mine[k].name).toBe(w.name);
        if ('line' in w || !c.import.items) expect(mine[k].line, c.file).toBe(w.line);
        if (w.reason) expect(mine[k].reason, c.file).toContain(w.reason);
        if (w.outcome === 'rejected') expect(mine[k].reason).toMatch(/\S/);
        if ((w as { problems?: number }).problems !== undefined) expect(mine[k].problems, c.file).toBe((w as { problems?: number }).problems);
      });
      // What was kept comes back byte for byte.
      if (!c.import.items && c.import.outcome === 'added') {
        expect(same(await bytesOf((await api.exportSession({ id: mine[0].id! })).blob), await bytesOf(await fileOf(c.file))), c.file).toBe(true);
      }
    }
    await expectPrecious(api, before);
    await expectNoLeftovers(root);
    // Only session files in sessions/: archive entry names never became paths.
    const added = report.items.filter((i) => i.outcome === 'added').map((i) => `${encodeURIComponent(i.id!)}.jsonl`);
    expect(await namesIn(root, 'sessions')).toEqual(['precious-1.jsonl', 'precious-2.jsonl', ...added].sort());
    const listed = await api.listSessions({});
    // A new worker (a reload) with the index removed lists the same thing from the files.
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(root);
    await dir.removeEntry('index.json');
    const again = open(root);
    const rebuilt = await again.api.listSessions({});
    const key = (s: { id: string; size: number; entryCount: number; problems: number; title: string | null }) =>
      [s.id, s.size, s.entryCount, s.problems, s.title].join('|');
    expect(rebuilt.map(key).sort()).toEqual(listed.map(key).sort());
    expect((await api.ping({ message: 'alive' })).pong).toBe('alive');
  });

  test('big generated cases (modest sizes; full sizes in the bench): kept whole, counted right, the worker still answers', async () => {
    const { root, api } = open();
    const before = await storePrecious(api);
    for (const c of [hugeLine(BROWSER_SIZES.lineMb), longChain(BROWSER_SIZES.chain), deepNesting(BROWSER_SIZES.depth)]) {
      const report = await api.importFiles({ files: [new File(c.parts as BlobPart[], c.name)] });
      expect(report.items[0]).toMatchObject({ name: c.name, outcome: 'added', id: c.id, problems: c.name.startsWith('deep') ? 1 : 0 });
      const s = await api.getSession({ id: c.id });
      expect([s.size, s.entryCount]).toEqual([c.size, c.entries]);
      const back = await bytesOf((await api.exportSession({ id: c.id })).blob);
      expect(same(back, await bytesOf(new Blob(c.parts as BlobPart[])))).toBe(true);
      expect((await api.ping({ message: c.name })).pong).toBe(c.name);
    }
    await expectPrecious(api, before);
    await expectNoLeftovers(root);
  });
});

describe('a full disk (CDP Storage.overrideQuotaForOrigin)', () => {
  test('files, a gzip and a zip that do not fit: a message naming the file, stored sessions intact, no partial file, the index right', async () => {
    const { root, api } = open();
    const session = cdp();
    const origin = location.origin;
    const before = await storePrecious(api);
    const listed = await api.listSessions({});
    const { usage } = await api.storageInfo({});
    await session.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 96 * 1024 });
    cleanups.push(() => session.send('Storage.overrideQuotaForOrigin', { origin }));
    const small = new File([sessionText('small-fits', 1)], 'small.jsonl');
    const big = new File([sessionText('too-big', 1200)], 'big.jsonl');
    const gz = new File(
      [await new Response(new Blob([sessionText('too-big-gz', 1200)]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer()],
      'big.jsonl.gz',
    );
    const zip = new File([zipSync({ 'sessions/too-big-zip.jsonl': strToU8(sessionText('too-big-zip', 1200)) })], 'big.zip');
    for (const [files, culprit] of [
      [[small, big], 'big.jsonl'],
      [[gz], 'big.jsonl.gz'],
      [[zip], 'big.zip'],
    ] as const) {
      const error = await api.importFiles({ files: [...files] }).then(
        () => null,
        (e: { code: string; file?: string; message: string }) => e,
      );
      expect(error).toMatchObject({ code: 'quota-exceeded', file: culprit });
      expect(error!.message).toContain(culprit);
      await expectPrecious(api, before);
      await expectNoLeftovers(root);
    }
    // What fitted was kept and is listed; what did not is nowhere.
    const now = await api.listSessions({});
    expect(now.map((s) => s.id).sort()).toEqual([...listed.map((s) => s.id), 'small-fits'].sort());
    expect(await namesIn(root, 'sessions')).toEqual(['precious-1.jsonl', 'precious-2.jsonl', 'small-fits.jsonl']);
    // Appending (rename) on a full disk: refused, the session unchanged.
    const filler = new File([sessionText('filler', 150)], 'filler.jsonl');
    await api.importFiles({ files: [filler] }).catch(() => undefined);
    let failures = 0;
    for (let i = 0; i < 40 && failures === 0; i++) {
      await api.renameSession({ id: 'precious-1', title: `Title ${i} ${'x'.repeat(2000)}` }).catch((e: { code: string }) => {
        expect(e.code).toBe('quota-exceeded');
        failures++;
      });
    }
    expect(failures).toBe(1);
    const p1 = await bytesOf((await api.exportSession({ id: 'precious-1' })).blob);
    const { parse } = await import('../../../src/core/index.ts');
    expect(parse(p1).problems).toEqual([]);
    expect((await api.getSession({ id: 'precious-1' })).size).toBe(p1.length);
    await expectNoLeftovers(root);
    // A new worker comes to the same list. What the full disk kept out of index.json (held in the
    // first worker's memory) is found by the new worker's check of the index against the files,
    // which runs after its first answer: wait for that check, not for a time.
    await session.send('Storage.overrideQuotaForOrigin', { origin });
    const again = open(root);
    const want = (await api.listSessions({})).map((s) => [s.id, s.size]).sort();
    await expect.poll(async () => (await again.api.listSessions({})).map((s) => [s.id, s.size]).sort()).toEqual(want);
  });
});
