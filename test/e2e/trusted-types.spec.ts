// Trusted Types on the built app: the CSP requires them for every script sink and allows one policy
// (src/ui/trusted-types.ts), so a stray HTML sink anywhere in the page is refused by the browser
// rather than going unnoticed; the app itself (preact, workbox-window, vite's preload helper, the
// worker, the markdown path on both sanitizers) runs without a single violation.
import { expect, type Page, test } from '@playwright/test';
import { dropFiles, IMPORTED, openEmptyLibrary, watchForHostileEffects } from './app-helpers.ts';

test.describe.configure({ timeout: 120_000 });

const ID = '0193a5c2-7e10-7c4e-9f1a-5a7f0e2b9d77';
/** A session whose answer is markdown with a link and a coloured code block. */
function markdownSession(): string {
  const t = '2026-11-29T10:00:00.000Z';
  const text = 'Some **bold** and a [link](https://example.com/x).\n\n```ts\nconst x = 1;\n```\n\n<b onclick="x()">raw</b>';
  return `${[
    { type: 'session', version: 3, id: ID, timestamp: t, cwd: '/home/test/tt' },
    {
      type: 'message',
      id: 'tt000001',
      parentId: null,
      timestamp: t,
      message: { role: 'user', content: [{ type: 'text', text: 'Show me markdown' }], timestamp: 1 },
    },
    {
      type: 'message',
      id: 'tt000002',
      parentId: 'tt000001',
      timestamp: t,
      message: {
        role: 'assistant',
        content: [{ type: 'text', text }],
        api: 'x',
        provider: 'p',
        model: 'm',
        stopReason: 'stop',
        timestamp: 2,
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      },
    },
  ]
    .map((e) => JSON.stringify(e))
    .join('\n')}\n`;
}

/** Imports the markdown session through the library, opens it and waits for its markdown. */
async function openMarkdown(page: Page) {
  await openEmptyLibrary(page);
  await dropFiles(page, [{ name: 'tt.jsonl', text: markdownSession() }]);
  await expect(page.locator(`a[href="#/s/${ID}"]`).first()).toBeAttached(IMPORTED);
  await page.goto(`/#/s/${ID}`);
  const md = page.locator('.rd-row[data-entry="tt000002"] .md[data-md="html"]');
  await expect(md.locator('strong')).toHaveText('bold');
  await expect(md.locator('a')).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(md.locator('.hljs-keyword').first()).toHaveText('const');
  return md;
}

test('the app runs under Trusted Types without a violation, and a stray innerHTML is refused', async ({ page, baseURL }) => {
  const effects = await watchForHostileEffects(page, baseURL!);
  await page.goto('/');
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("require-trusted-types-for 'script'");
  expect(csp).toContain('trusted-types rho');
  await openMarkdown(page);
  expect(await page.evaluate(() => 'setHTML' in Element.prototype)).toBe(true);
  // Back to the library and into the reader again: everything the app does ran without a violation.
  await page.goto('/');
  await expect(page.locator(`a[href="#/s/${ID}"]`).first()).toBeVisible();
  expect(await effects.cspViolations()).toEqual([]);

  // Now code that forgot the sanitizer: every HTML and script sink refuses a plain string.
  const refused = await page.evaluate(() => {
    const attempt = (f: () => void) => {
      try {
        f();
        return 'allowed';
      } catch (e) {
        return (e as Error).name;
      }
    };
    const div = document.createElement('div');
    return {
      innerHTML: attempt(() => {
        div.innerHTML = '<img src=x onerror="window.__pwned=1">';
      }),
      insertAdjacentHTML: attempt(() => document.body.insertAdjacentHTML('beforeend', '<b>x</b>')),
      scriptSrc: attempt(() => {
        document.createElement('script').src = 'https://evil.example/x.js';
      }),
      worker: attempt(() => new Worker('data:text/javascript,1')),
      anotherPolicy: attempt(() =>
        (window as unknown as { trustedTypes: { createPolicy(n: string, r: object): unknown } }).trustedTypes.createPolicy('mine', {}),
      ),
      divEmpty: div.childNodes.length,
    };
  });
  expect(refused).toEqual({
    innerHTML: 'TypeError',
    insertAdjacentHTML: 'TypeError',
    scriptSrc: 'TypeError',
    worker: 'TypeError',
    anotherPolicy: 'TypeError',
    divEmpty: 0,
  });
  // The browser reports each as a violation of the CSP's Trusted Types directives.
  await expect.poll(async () => (await effects.cspViolations()).filter((v) => v.startsWith('require-trusted-types-for')).length).toBeGreaterThanOrEqual(4);
  expect((await effects.cspViolations()).some((v) => v.startsWith('trusted-types'))).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
});

test('without the HTML Sanitizer (as in Safari), DOMPurify renders the same markdown through the one policy', async ({ page, baseURL }) => {
  await page.addInitScript(() => {
    delete (Element.prototype as unknown as { setHTML?: unknown }).setHTML;
    delete (window as unknown as { Sanitizer?: unknown }).Sanitizer;
  });
  const effects = await watchForHostileEffects(page, baseURL!);
  const md = await openMarkdown(page);
  expect(await page.evaluate(() => 'setHTML' in Element.prototype)).toBe(false);
  // The raw HTML in the text came out as text, not as an element.
  await expect(md).toContainText('<b onclick="x()">raw</b>');
  expect(await md.locator('b').count()).toBe(0);
  expect(await effects.cspViolations()).toEqual([]);
  expect(effects.errors.filter((e) => /Trusted|Content Security Policy|Refused/i.test(e))).toEqual([]);
});
