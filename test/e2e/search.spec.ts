// End to end: the library's search as a person uses it. Typing finds text inside sessions
// (assistant text, a tool's output) as you go; a hit opens the reader at its entry with find set;
// hostile text in snippets and titles stays text (no element, no script, no dialog, no CSP violation).
import { expect, test } from '@playwright/test';
import { dropFiles, fixture, importSummary, IMPORTED, openEmptyLibrary, watchForHostileEffects } from './app-helpers.ts';
import { SIZES } from './sizes.ts';

test.describe.configure({ timeout: 120_000 });

const T = '2026-11-29T10:00:00.000Z';
const evil = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><svg onload="alert(1)">`;

function session(id: string, title: string, lines: Array<Record<string, unknown>>): string {
  return [{ type: 'session', version: 3, id, timestamp: T, cwd: '/home/test/searchproj', title }, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

const files = [
  {
    name: 'hostile.jsonl',
    text: session('5e000000-0000-4000-8000-000000000001', `Title ${evil} quokkaword`, [
      {
        type: 'message',
        id: 'h1',
        parentId: null,
        timestamp: T,
        message: { role: 'user', content: `quokkaword ${evil} [x](javascript:alert(3))`, timestamp: 1 },
      },
      {
        type: 'message',
        id: 'h2',
        parentId: 'h1',
        timestamp: T,
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Looking.' },
            { type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'cat notes.txt' } },
          ],
          api: 'anthropic-messages',
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
          stopReason: 'toolUse',
          timestamp: 2,
        },
      },
      {
        type: 'message',
        id: 'h3',
        parentId: 'h2',
        timestamp: T,
        message: {
          role: 'toolResult',
          toolCallId: 'c1',
          toolName: 'bash',
          content: [{ type: 'text', text: `output wombatword ${evil}` }],
          isError: false,
          timestamp: 3,
        },
      },
    ]),
  },
  {
    name: 'plain.jsonl',
    text: session('5e000000-0000-4000-8000-000000000002', 'Plain session', [
      { type: 'message', id: 'p1', parentId: null, timestamp: T, message: { role: 'user', content: 'nothing to see', timestamp: 1 } },
    ]),
  },
];

test('typing finds a tool output; the hit opens the reader at that entry with find set; hostile snippets stay text; the search box reads the index when it gets focus', async ({
  page,
  baseURL,
}) => {
  await test.step('typing finds a tool output; the hit opens the reader at that entry with find set; hostile snippets stay text', async () => {
    const { dialogs, foreign, errors, cspViolations } = await watchForHostileEffects(page, baseURL!);
    await openEmptyLibrary(page);
    await dropFiles(page, files);
    await expect(importSummary(page)).toHaveText('Added: 2', IMPORTED);
    await page.getByRole('region', { name: 'Import' }).getByRole('button', { name: 'Close' }).click();

    const box = page.getByLabel('Search sessions');
    // As typed, a prefix: the word inside a tool's output.
    await box.pressSequentially('wombat');
    const results = page.getByRole('region', { name: 'Search results' });
    await expect(results.locator('.search-session')).toHaveCount(1);
    const hit = results.locator('.search-hit').first();
    await expect(hit.locator('mark')).toHaveText('wombatword');
    // The hostile markup is in the snippet as text, not as elements.
    await expect(hit).toContainText('<img src=x onerror=');
    await expect(hit).toContainText('<script>');
    await expect(results.locator('img, script, svg, iframe')).toHaveCount(0);

    // A title with hostile markup, marked where it matched, is text too.
    await box.fill('quokkaword');
    await expect(results.locator('.search-session .session-title mark')).toHaveText('quokkaword');
    await expect(results.locator('.search-session .session-title')).toContainText('<script>');
    await expect(results.locator('.search-hit')).toHaveCount(1);

    // Filters: the user's entry is not a tool output.
    await box.fill('wombatword role:user');
    await expect(results).toContainText('Nothing found');

    // A hit opens the reader at its entry with find set to what matched.
    await box.fill('wombatword');
    await results.locator('.search-hit').first().click();
    await expect(page).toHaveURL(/#\/s\/5e000000-0000-4000-8000-000000000001\?entry=h3&find=wombatword$/);
    await expect(page.getByRole('searchbox', { name: 'Find in session' })).toHaveValue('wombatword');
    // The tool's output is drawn inside its call's card (row h2); find marks the word there.
    await expect(page.locator('.rd-row', { hasText: 'wombatword' }).first()).toBeVisible();

    const active = await page.evaluate(() => ({
      scripts: document.querySelectorAll('main script, main iframe, main svg[onload], main img[src="x"]').length,
      handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
      pwned: (window as unknown as { __pwned?: unknown }).__pwned ?? null,
    }));
    expect(active).toEqual({ scripts: 0, handlers: 0, pwned: null });
    expect(await cspViolations()).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
  });

  await test.step('the search box reads the index when it gets focus, before the first key (building it when it is lost)', async () => {
    await page.goto('/');
    const hasIndex = () =>
      page.evaluate(async () => {
        try {
          await (await (await navigator.storage.getDirectory()).getDirectoryHandle('search')).getFileHandle('manifest.json');
          return true;
        } catch {
          return false;
        }
      });
    // The import wrote the index; it is lost, and the app opened again: nothing builds it until asked.
    await expect.poll(hasIndex).toBe(true);
    await page.reload();
    await expect(page.getByText('Plain session')).toBeVisible();
    await page.evaluate(async () => (await navigator.storage.getDirectory()).removeEntry('search', { recursive: true }));
    expect(await hasIndex()).toBe(false);
    // Focus alone has the worker build it.
    const box = page.getByLabel('Search sessions');
    await box.focus();
    await expect.poll(hasIndex).toBe(true);
    await box.pressSequentially('wombat');
    await expect(page.getByRole('region', { name: 'Search results' }).locator('.search-session')).toHaveCount(1);
  });
});

/** A session's date as its rule says (docs/capabilities.md): its latest entry's time, labels and names left out; in UTC, as en-US writes it. */
function dateOf(path: string): string {
  const records = fixture(path)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; timestamp?: string });
  const times = records
    .filter((r) => r.type !== 'session' && !['label', 'session_info', 'title_change'].includes(r.type))
    .map((r) => Date.parse(r.timestamp ?? ''));
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(Math.max(...times));
}

/** Three real sessions: one that started on Feb 9 and went on to Feb 13, one in Chinese, a long one with long tool outputs. */
const DATED = 'real/VerveAILabs-openclaw-backup-image-branches.jsonl';
const CHINESE = 'real/xiayongchao-pi-demo-branch.jsonl';
const LONG = 'real/pi-mono-before-compaction-first-762-lines.jsonl';
const idOf = (path: string) => JSON.parse(fixture(path).toString('utf8').split('\n')[0]).id as string;

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ ...size.use, locale: 'en-US', timezoneId: 'UTC' });

    test('dates on cards and hits, a Chinese word inside a sentence, find in a long session', async ({ page }) => {
      await openEmptyLibrary(page);
      await dropFiles(
        page,
        [DATED, CHINESE, LONG].map((p) => ({ name: p.split('/').pop()!, text: fixture(p).toString('utf8') })),
      );
      await expect(importSummary(page)).toHaveText('Added: 3', IMPORTED);
      /** Loads the library afresh. */
      const library = async () => {
        await page.goto('/');
        await expect(page.locator(`.session-card[data-session-id="${idOf(DATED)}"]`)).toBeVisible();
      };

      await test.step('a Chinese word inside a sentence is found and marked in its hit', async () => {
        // The real session says "我叫张三，请记住" (no spaces between its words).
        await library();
        const box = page.getByLabel('Search sessions');
        const results = page.getByRole('region', { name: 'Search results' });
        await box.fill('记住');
        await expect(results.locator('.search-session')).toHaveCount(1);
        const hit = results.locator('.search-hit', { hasText: '我叫张三' }).first();
        await expect(hit.locator('mark')).toHaveText(['记住']);
        await expect(hit.locator('mark')).toBeInViewport();
        // Two words of a run, typed together, are found as they stand; a pair that is not in the text is not.
        await box.fill('张三 记住');
        await expect(results.locator('.search-session')).toHaveCount(1);
        await box.fill('记张');
        await expect(results).toContainText('Nothing found');
      });

      await test.step('find in session brings its match itself on screen, past the long output it opens', async () => {
        const id = idOf(LONG);
        await library();
        await page.goto(`/#/s/${encodeURIComponent(id)}`);
        // The reader opens at the session's end: find starts from there.
        const atEnd = () =>
          page.evaluate(() => {
            const list = [...document.querySelectorAll('.vl')].find((el) => !el.closest('.rd-rehearsal'));
            return !!list && list.querySelector('.rd-row') !== null && list.scrollTop + list.clientHeight >= list.scrollHeight - 2;
          });
        await expect.poll(atEnd).toBe(true);
        await page.keyboard.press('/');
        await page.getByRole('searchbox', { name: 'Find in session' }).fill('generateSummary');
        await expect(page.locator('.rd-find-count')).toHaveText('1 of 1');
        // Some occurrence of the word, as laid out in the page, lies inside the transcript's scroller.
        const onScreen = () =>
          page.evaluate(() => {
            // The reader's own list, not the one the library rehearses hidden (rehearsal.tsx).
            const list = [...document.querySelectorAll('.vl')].find((el) => !el.closest('.rd-rehearsal'))!;
            const scroller = list.getBoundingClientRect();
            const walker = document.createTreeWalker(list, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const at = (node.nodeValue ?? '').indexOf('generateSummary');
              if (at < 0) continue;
              const range = new Range();
              range.setStart(node, at);
              range.setEnd(node, at + 'generateSummary'.length);
              const r = range.getBoundingClientRect();
              if (r.height > 0 && r.top >= scroller.top && r.bottom <= scroller.bottom && r.left >= scroller.left && r.right <= scroller.right) return true;
            }
            return false;
          });
        await expect.poll(onScreen).toBe(true);
      });

      await test.step('a session reads the same date on its card and its search hit (its latest entry), and a label added today does not change it', async () => {
        // A real session that started on Feb 9 and went on to Feb 13.
        const path = DATED;
        const date = dateOf(path);
        expect(date).toBe('Feb 13');
        const id = idOf(path);
        await library();
        const cardDate = page.locator(`.session-card[data-session-id="${id}"] .fact`).first();
        await expect(cardDate).toHaveText(date);
        const box = page.getByLabel('Search sessions');
        const hitFacts = page.getByRole('region', { name: 'Search results' }).locator('.search-session .facts');
        await box.fill('zohoemail');
        await expect(hitFacts).toHaveText(new RegExp(` · ${date} · | · ${date}$`));
        // A label written today is about the session, not in its conversation: the date stays.
        await page.goto(`/#/s/${encodeURIComponent(id)}`);
        const label = page.getByRole('button', { name: /^Label #\d+$/ }).last();
        await label.click();
        const form = page.getByRole('form', { name: /^Label of #\d+$/ });
        await form.getByRole('textbox', { name: 'Label' }).fill('backup pushed');
        await form.getByRole('button', { name: 'Save' }).click();
        await expect(page.locator('.rd-divider.label').last()).toContainText('backup pushed');
        await page.goto('/#/');
        await box.fill('');
        await expect(cardDate).toHaveText(date);
        await box.fill('backup pushed');
        await expect(hitFacts).toHaveText(new RegExp(` · ${date} · | · ${date}$`));
      });
    });
  });
}
