// Reliability through the app itself in Chromium: two tabs importing and appending to the same session
// at once; a full disk (quota lowered through CDP) during a drop; and hostile names, titles and
// reasons in the library and the import report — rendered as text, nothing run, nothing fetched.
import { expect, test, type Page } from '@playwright/test';
import { parse } from '../../src/core/index.ts';
import { dropFiles, importSummary, makeSession, openEmptyLibrary, watchForHostileEffects } from './app-helpers.ts';
import { call, installDriver, opfsState } from './hardening-helpers.ts';

type Summary = { id: string; size: number; entryCount: number; problems: number; variantOf?: string; title: string | null };

/** A session of `n` custom entries in one chain (deterministic, so a longer one extends a shorter one). */
function chain(id: string, n: number): string {
  const lines = [JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-05-06T07:08:09.000Z', cwd: '/home/u/tabs', title: 'Shared by two tabs' })];
  for (let i = 0; i < n; i++) {
    lines.push(
      JSON.stringify({
        type: 'custom',
        id: `t${i.toString(16).padStart(7, '0')}`,
        parentId: i ? `t${(i - 1).toString(16).padStart(7, '0')}` : null,
        timestamp: '2026-05-06T07:08:09.000Z',
        customType: 'step',
        data: { i },
      }),
    );
  }
  return lines.join('\n') + '\n';
}

async function openTab(page: Page) {
  await installDriver(page);
  await page.goto('/');
  await page.waitForFunction(() => (window as unknown as { __rho: { ready(): boolean } }).__rho.ready());
}

async function sessionBytes(page: Page, id: string): Promise<string> {
  return page.evaluate(async (id) => {
    const f = await (
      await (await (await navigator.storage.getDirectory()).getDirectoryHandle('sessions')).getFileHandle(`${encodeURIComponent(id)}.jsonl`)
    ).getFile();
    return f.text();
  }, id);
}

test('two tabs import and append to the same session at once: every entry exactly once, every file valid, both tabs show the final state', async ({
  context,
}) => {
  test.setTimeout(180_000);
  const a = await context.newPage();
  const b = await context.newPage();
  await openTab(a);
  await openTab(b);
  const ID = '77777777-0000-4000-8000-000000000001';
  await call(a, 'importFiles', { files: [] });
  await a.evaluate(
    async (t) =>
      (window as unknown as { __rho: { call(m: string, p: unknown): Promise<unknown> } }).__rho.call('importFiles', { files: [new File([t], 'shared.jsonl')] }),
    chain(ID, 50),
  );
  // At once: tab A imports longer and longer copies (another device appended) and labels; tab B labels.
  const work = (page: Page, who: string, imports: string[]) =>
    page.evaluate(
      async ({ who, imports, ID }) => {
        const rho = (window as unknown as { __rho: { call(m: string, p: unknown): Promise<unknown> } }).__rho;
        const jobs: Promise<unknown>[] = [];
        for (let i = 0; i < 12; i++) jobs.push(rho.call('labelEntry', { id: ID, entryId: `t${(i * 3).toString(16).padStart(7, '0')}`, label: `${who} ${i}` }));
        for (const [k, text] of imports.entries()) jobs.push(rho.call('importFiles', { files: [new File([text], `copy-${k}.jsonl`)] }));
        return Promise.all(jobs);
      },
      { who, imports, ID },
    );
  await Promise.all([work(a, 'A', [chain(ID, 120), chain(ID, 200)]), work(b, 'B', [chain(ID, 150)])]);

  // Every file of the session (the session and any variant kept beside it) is valid, each id once.
  const list = await call<Summary[]>(b, 'listSessions', {});
  const mine = list.filter((s) => s.id === ID || s.variantOf === ID);
  const seen = new Map<string, number>();
  const labels: string[] = [];
  for (const s of mine) {
    const text = await sessionBytes(a, s.id);
    const parsed = parse(text);
    expect(parsed.problems, s.id).toEqual([]);
    const ids = parsed.entries.map((e) => e.id as string);
    expect(new Set(ids).size, `${s.id}: every entry once`).toBe(ids.length);
    for (const e of parsed.entries) seen.set(e.id as string, (seen.get(e.id as string) ?? 0) + 1);
    labels.push(...parsed.entries.filter((e) => e.type === 'label').map((e) => e.label as string));
    expect(s.size).toBe(new TextEncoder().encode(text).length);
  }
  // Nothing lost: all 200 chain entries and all 24 labels are somewhere, each label exactly once.
  for (let i = 0; i < 200; i++) expect(seen.has(`t${i.toString(16).padStart(7, '0')}`), `entry ${i}`).toBe(true);
  expect(labels.sort()).toEqual([...Array.from({ length: 12 }, (_, i) => `A ${i}`), ...Array.from({ length: 12 }, (_, i) => `B ${i}`)].sort());
  // Both tabs' own workers list the same final records, and both tabs' library shows them.
  const listA = await call<Summary[]>(a, 'listSessions', {});
  expect(listA.map((s) => [s.id, s.size, s.entryCount]).sort()).toEqual(list.map((s) => [s.id, s.size, s.entryCount]).sort());
  const main = list.find((s) => s.id === ID)!;
  for (const page of [a, b]) {
    await expect(page.locator(`.session-card[data-session-id="${ID}"] .facts`)).toContainText(`${main.entryCount} entries`, { timeout: 20_000 });
  }
});

test('a drop that does not fit (quota lowered through CDP): a clear message naming the file; the library and the stored bytes unchanged; no partial file', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await installDriver(page);
  await openEmptyLibrary(page);
  await dropFiles(page, [{ name: 'kept.jsonl', text: makeSession('88888888-0000-4000-8000-000000000001', 'Kept safe') }]);
  await expect(importSummary(page)).toHaveText('Added: 1');
  const before = await opfsState(page);
  const cdp = await context.newCDPSession(page);
  const origin = new URL(page.url()).origin;
  const { usage } = await page.evaluate(() => navigator.storage.estimate());
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: (usage ?? 0) + 128 * 1024 });
  try {
    const big = chain('88888888-0000-4000-8000-000000000002', 6000);
    await dropFiles(page, [{ name: 'too-big.jsonl', text: big }]);
    const alert = page.getByRole('region', { name: 'Import' }).getByRole('alert');
    await expect(alert).toContainText('too-big.jsonl', { timeout: 30_000 });
    await expect(alert).toContainText(/no room/i);
    const after = await opfsState(page);
    expect(after.sessions).toEqual(before.sessions);
    expect(after.tmp).toEqual([]);
    expect(after.spool).toEqual([]);
    await expect(page.locator('.session-card')).toHaveCount(1);
    await expect(page.locator('.session-card .session-title')).toHaveText('Kept safe');
  } finally {
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  }
});

test('hostile file names, titles, folders and rejected lines in the library and the import report: shown as text, nothing runs, nothing is fetched', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { dialogs, foreign, errors, cspViolations } = await watchForHostileEffects(page, baseURL!);
  await openEmptyLibrary(page);
  const evil = '<img src=x onerror="window.__pwned=1;alert(1)"><script>window.__pwned=2</script><svg onload=alert(3)>';
  const hostile =
    [
      JSON.stringify({
        type: 'session',
        version: 3,
        id: `"><img src=x onerror=alert(4)>`,
        timestamp: '2026-01-01T00:00:00.000Z',
        cwd: `/home/${evil}/proj`,
        title: `Title ${evil}`,
      }),
      JSON.stringify({
        type: 'message',
        id: 'x0000001',
        parentId: null,
        timestamp: 't',
        message: { role: 'user', content: `First message ${evil} [link](javascript:alert(5)) http://evil.invalid/x.png`, timestamp: 1 },
      }),
      JSON.stringify({ type: `custom<script>alert(6)</script>`, id: '<b>id</b>', parentId: 'x0000001', timestamp: 't' }),
    ].join('\n') + '\n';
  await dropFiles(page, [
    { name: `${evil}.jsonl`, text: hostile },
    { name: `rejected ${evil}.jsonl`, text: `<script>alert(7)</script>\n` },
    {
      name: 'torn.jsonl',
      text: makeSession('99999999-0000-4000-8000-000000000001', `Torn ${evil}`) + `{"type":"message","evil":"${evil.replace(/"/g, '\\"')}`,
    },
  ]);
  await expect(importSummary(page)).toContainText('Added: 2');
  await expect(importSummary(page)).toContainText('Rejected: 1');
  // The names and reasons are there as text.
  const report = page.getByRole('region', { name: 'Import' });
  await expect(report).toContainText(`rejected ${evil}.jsonl`);
  await expect(report).toContainText('incomplete');
  await page.getByRole('region', { name: 'Import' }).getByRole('button', { name: 'Close' }).click();
  await expect(page.locator('.session-card')).toHaveCount(2);
  await expect(page.getByRole('main')).toContainText(`Title ${evil}`);
  // Search over the hostile text renders snippets as text too.
  const search = page.getByRole('searchbox').first();
  await search.fill('script');
  // The answer is on screen (the search ran over the hostile text), then gone again.
  await expect(page.getByRole('status').filter({ hasText: 'found for' })).toContainText('2 sessions found');
  await expect(page.locator('.search-results')).toContainText('<script>');
  await search.fill('');
  await expect(page.getByRole('status').filter({ hasText: 'found for' })).toHaveCount(0);
  await expect(page.locator('.session-card')).toHaveCount(2);
  const active = await page.evaluate(() => {
    const main = document.querySelector('main')!;
    return {
      scripts: main.querySelectorAll('script, iframe, object, embed, img[src="x"], svg[onload]').length,
      handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
      links: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')!).filter((h) => /^\s*javascript:/i.test(h)),
    };
  });
  expect(active).toEqual({ scripts: 0, handlers: 0, links: [] });
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await cspViolations()).toEqual([]);
  expect(dialogs).toEqual([]);
  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});
