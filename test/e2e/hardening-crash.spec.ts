// Crashes: the page is killed (closed, or its renderer crashed through CDP Page.crash)
// at random points of a large import (a new session and a big update of a stored one, written in
// several chunks) and of a run of appends, then the app is opened again. Each session must be in
// its old state or its new one, byte for byte, never half-written; sessions not involved must not
// change; and the index must agree with the files. The seed is printed so a kill point can be replayed.
import { expect, test, type Page } from '@playwright/test';
import { call, installGenerators, openApp, opfsState, prng } from './hardening-helpers.ts';

type Summary = { id: string; size: number; entryCount: number; problems: number };
type Gen = { lines(id: string, from: number, to: number): string; sha(b: string | Uint8Array): Promise<string>; entriesFor(kb: number): number };

const SEED = Number(process.env.HARDEN_SEED ?? 20261130);
const ROUNDS = Number(process.env.HARDEN_CRASH_ROUNDS ?? 3);

// (round 0 is timed; later rounds kill inside that time)

async function fresh(page: Page) {
  await openApp(page);
  await installGenerators(page);
}

/** Kills the page: a plain close, or a renderer crash (the harder way). */
async function kill(page: Page, how: 'close' | 'crash') {
  const settle = (p: Promise<unknown>, ms: number) => Promise.race([p.catch(() => undefined), new Promise((r) => setTimeout(r, ms))]);
  if (how === 'crash') {
    const cdp = await page.context().newCDPSession(page);
    const crashed = page.waitForEvent('crash', { timeout: 15_000 });
    void cdp.send('Page.crash').catch(() => undefined);
    await settle(crashed, 15_000);
  }
  await settle(page.close(), 10_000);
}

/** The index (listSessions) must say what the files say (getSession re-reads a file that changed behind it). */
async function expectIndexRight(page: Page, files: Record<string, { size: number }>) {
  const list = await call<Summary[]>(page, 'listSessions', {});
  expect(list.map((s) => `${encodeURIComponent(s.id)}.jsonl`).sort()).toEqual(Object.keys(files).sort());
  for (const s of list) {
    expect(s.size, `index size of ${s.id}`).toBe(files[`${encodeURIComponent(s.id)}.jsonl`].size);
    const healed = await call<Summary>(page, 'getSession', { id: s.id });
    expect([healed.size, healed.entryCount, healed.problems], `index record of ${s.id}`).toEqual([s.size, s.entryCount, s.problems]);
  }
  return list;
}

test('killing the page during a large import or a run of appends leaves each session old or new, never half-written; the index stays right', async ({
  context,
}) => {
  test.setTimeout(420_000);
  const rand = prng(SEED);
  const log: string[] = [];
  // Setup: a session nobody touches, a session that a later import extends, and one that gets labels.
  const setup = await context.newPage();
  await fresh(setup);
  const base = await setup.evaluate(async () => {
    const g = (window as unknown as { __gen: Gen }).__gen;
    return { precious: g.lines('precious', 0, 20), grow: g.lines('grow', 0, g.entriesFor(512)), notes: g.lines('notes', 0, 10) };
  });
  await call(setup, 'importFiles', { files: [] });
  await setup.evaluate(async (b) => {
    const rho = (window as unknown as { __rho: { call(m: string, p: unknown): Promise<unknown> } }).__rho;
    await rho.call('importFiles', { files: [new File([b.precious], 'precious.jsonl'), new File([b.grow], 'grow.jsonl'), new File([b.notes], 'notes.jsonl')] });
  }, base);
  const shaOf = (p: Page, s: string) => p.evaluate((t) => (window as unknown as { __gen: Gen }).__gen.sha(t), s);
  const preciousSha = await shaOf(setup, base.precious);
  let growEntries = (base.grow.match(/\n/g)?.length ?? 1) - 1;
  let growSha = await shaOf(setup, base.grow);
  let notes = await opfsState(setup).then((s) => s.sessions['notes.jsonl']);
  await setup.close();

  const outcomes = { old: 0, new: 0, leftoverTmp: 0 };
  let importMs = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const page = await context.newPage();
    await fresh(page);
    // A new 1 MB session, and 4.5 MB more for `grow` (two 4 MB chunks: an append that takes several steps).
    const nextGrow = growEntries + (await page.evaluate(() => (window as unknown as { __gen: Gen }).__gen.entriesFor(4.5 * 1024)));
    const plan = await page.evaluate(
      async ({ round, growEntries, nextGrow }) => {
        const g = (window as unknown as { __gen: Gen }).__gen;
        const rho = (window as unknown as { __rho: { start(m: string, p: unknown): number } }).__rho;
        const fresh = g.lines(`crash-${round}`, 0, g.entriesFor(1024));
        const grown = g.lines('grow', 0, nextGrow);
        const importId = rho.start('importFiles', { files: [new File([fresh], `crash-${round}.jsonl`), new File([grown], 'grow.jsonl')] });
        // Labels appended one by one meanwhile (each an appendLines under the session's lock).
        const appendIds: number[] = [];
        for (let i = 0; i < 12; i++)
          appendIds.push(rho.start('labelEntry', { id: 'notes', entryId: `c${(i % 10).toString(16).padStart(7, '0')}`, label: `round ${round} label ${i}` }));
        const started = performance.now();
        const freshSha = await g.sha(fresh);
        const grownSha = await g.sha(grown);
        return { importId, freshSha, grownSha, growEntries, hashMs: performance.now() - started };
      },
      { round, growEntries, nextGrow },
    );
    const startedAt = Date.now() - plan.hashMs;
    // Where to kill: round 0 lets the import finish (timing it) and kills a moment later, in the
    // index flush window; later rounds kill at a random moment of an import of the same size.
    const f = round === 0 ? 1 + rand() : rand() * 1.2;
    const how = rand() < 0.5 ? 'close' : 'crash';
    const doneNow = (id: number) =>
      page.evaluate((id) => (window as unknown as { __rho: { results: Record<number, unknown> } }).__rho.results[id] !== 'running', id);
    if (round === 0) {
      await page.waitForFunction(
        (id) => (window as unknown as { __rho: { results: Record<number, unknown> } }).__rho.results[id] !== 'running',
        plan.importId,
        { timeout: 120_000 },
      );
      importMs = Date.now() - startedAt;
      await page.waitForTimeout(Math.floor((f - 1) * 1200));
    } else {
      const at = startedAt + f * importMs;
      while (Date.now() < at && !(await doneNow(plan.importId))) await page.waitForTimeout(Math.min(25, Math.max(1, at - Date.now())));
    }
    const finished = await page.evaluate(
      (id) => (window as unknown as { __rho: { results: Record<number, unknown> } }).__rho.results[id] !== 'running',
      plan.importId,
    );
    await kill(page, how);

    // Reopen and check.
    const check = await context.newPage();
    await fresh(check);
    // As the app does before any read: let the store open, which settles what a killed writer left
    // (a journaled append is cut back). Reading OPFS before that would see the crash itself.
    await call(check, 'listSessions', {});
    const disk = await opfsState(check, ['precious.jsonl', 'grow.jsonl', `crash-${round}.jsonl`, 'notes.jsonl'], { 'notes.jsonl': notes.size });
    outcomes.leftoverTmp += disk.tmp.length;
    expect(disk.sessions['precious.jsonl'].sha, 'an untouched session').toBe(preciousSha);
    const grow = disk.sessions['grow.jsonl'].sha;
    expect([growSha, plan.grownSha], `grow after a kill at ${f.toFixed(2)} (${how})`).toContain(grow);
    const crash = disk.sessions[`crash-${round}.jsonl`];
    if (crash) expect(crash.sha, `crash-${round} is whole`).toBe(plan.freshSha);
    // The labels: the file still starts with its old bytes, and holds only whole entries.
    const notesNow = disk.sessions['notes.jsonl'];
    expect(notesNow.size).toBeGreaterThanOrEqual(notes.size);
    expect(notesNow.prefixSha, 'notes keeps its old bytes').toBe(notes.sha);
    const list = await expectIndexRight(check, disk.sessions);
    expect(list.find((s) => s.id === 'notes')!.problems, 'notes holds only whole entries').toBe(0);
    expect(list.find((s) => s.id === 'grow')!.problems).toBe(0);
    if (grow === plan.grownSha) {
      outcomes.new++;
      growSha = grow;
      growEntries = nextGrow;
    } else outcomes.old++;
    notes = notesNow;
    console.log(`[hardening-crash] round ${round} checked`);
    log.push(
      `round ${round}: kill ${f < 1 ? `${Math.round(f * 100)}% into the import's time` : 'just after the import'} (${how}${finished ? ', import had finished' : ''}) → grow ${grow === plan.grownSha ? 'new' : 'old'}, crash-${round} ${crash ? 'whole' : 'absent'}, tmp leftovers ${disk.tmp.length}`,
    );
    await check.close();
  }
  test.info().annotations.push({ type: 'kills', description: `seed ${SEED}: ${log.join('; ')}` });
  console.log(`[hardening-crash] seed ${SEED}\n  ${log.join('\n  ')}`);
});
