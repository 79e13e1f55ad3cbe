import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { importFixture, shots, watchForHostileEffects } from './app-helpers.ts';

test.describe.configure({ timeout: 120_000 });

test('a hostile session renders as text: no script runs, no dialog, no CSP violation, no other origin reached', async ({ page, baseURL }) => {
  const { dialogs, foreign, errors, cspViolations } = await watchForHostileEffects(page, baseURL!);

  const id = await importFixture(page, 'hostile/hostile.jsonl');
  await page.goto(`/#/s/${encodeURIComponent(id)}`);
  await expect(page.locator('.rd-row[data-entry="h0000020"]')).toBeVisible();
  // Walk the whole transcript with every expandable part open and thinking shown.
  await page.getByRole('button', { name: 'Thinking' }).click();
  await page.keyboard.press('g');
  const seen = new Set<string>();
  // Down to the end: stop when the list no longer moves.
  for (let i = 0, stuck = 0; i < 300 && stuck < 3; i++) {
    await page.locator('details:not([open])').evaluateAll((els) => els.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    // Rows on screen are real rows (not fling skeletons) with their markdown swapped in.
    await expect(page.locator('.vl-skeleton')).toHaveCount(0);
    await expect(page.locator('.rd [data-md="pending"]')).toHaveCount(0);
    for (const text of await page.locator('.rd-row').allInnerTexts()) seen.add(text);
    const moved = await page.locator('.vl').evaluate((el) => {
      const before = el.scrollTop;
      el.scrollTop += el.clientHeight * 0.7;
      return el.scrollTop !== before;
    });
    stuck = moved ? 0 : stuck + 1;
  }
  await expect(page.locator('.rd [data-md="pending"]')).toHaveCount(0);
  // Everything was there, as text (rows come and go as the list scrolls).
  const all = [...seen].join('\n');
  expect(all).toContain('unknown entry: <img src=x onerror=window.__pwned=1>');
  expect(all).toContain('last message <script>window.__pwned=1</script>');
  expect(all).toContain('SVG is not displayed');
  expect(all).toContain('these bytes are not a picture');
  await expect(page.locator('.rd-title')).toContainText('<script>');
  await page.keyboard.press('g');
  await expect(page.getByText('Raw HTML: <script>window.__pwned=1</script>', { exact: false }).first()).toBeVisible();
  await page.screenshot({ path: resolve(shots, 'reader-hostile-laptop.png'), fullPage: false });

  // Context, stats and find over the same content.
  await page.getByRole('tab', { name: 'What the model sees' }).click();
  await expect(page.getByRole('heading', { name: 'What the model sees' })).toBeVisible();
  await page.getByRole('tab', { name: 'Stats' }).click();
  await expect(page.getByRole('heading', { name: 'Stats' })).toBeVisible();
  await page.getByRole('tab', { name: 'Transcript' }).click();
  await page.keyboard.press('/');
  await page.getByRole('searchbox', { name: 'Find in session' }).fill('<script>');
  await expect(page.locator('.rd-find-count')).toHaveText(/of/);

  // The DOM holds nothing active from the file.
  const active = await page.evaluate(() => {
    const reader = document.querySelector('.rd')!;
    return {
      scripts: reader.querySelectorAll('script, iframe, object, embed, form, style, link, meta, base').length,
      handlers: [...reader.querySelectorAll('*')].filter((el) =>
        [...el.attributes].some((a) => a.name.startsWith('on') || (a.name === 'style' && /url|expression/i.test(a.value))),
      ).length,
      svgFromFile: [...reader.querySelectorAll('svg')].filter((s) => !s.classList.contains('rd-svg-icon') && !s.closest('.rd-chart')).length,
      links: [...reader.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')!).filter((h) => !/^(https?:|mailto:|#\/s\/)/.test(h)),
      unsafeTargets: [...reader.querySelectorAll('a[target="_blank"]')].filter(
        (a) => !/noopener/.test(a.getAttribute('rel') ?? '') || !/noreferrer/.test(a.getAttribute('rel') ?? ''),
      ).length,
      images: [...reader.querySelectorAll('img')].map((i) => i.getAttribute('src')!).filter((s) => !s.startsWith('blob:')),
    };
  });
  expect(active).toEqual({ scripts: 0, handlers: 0, svgFromFile: 0, links: [], unsafeTargets: 0, images: [] });
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await cspViolations()).toEqual([]);
  expect(dialogs).toEqual([]);
  expect(foreign).toEqual([]);
  expect(errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
});
