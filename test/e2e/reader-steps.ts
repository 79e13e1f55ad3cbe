// Steps of the reader's e2e test (reader.spec.ts) that stand on their own: which frame the reader's
// first form control and first row come in, and markdown made in the worker replacing plain text.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { dropFiles } from './app-helpers.ts';

export const row = (page: Page, entryId: string) => page.locator(`.rd-row[data-entry="${entryId}"]`);

/** Starts a count of animation frames in the page (`window.frames_`), for tests that tell which frame a change came in. */
export async function countFrames(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { frames_: number };
    w.frames_ = 0;
    const tick = () => {
      w.frames_++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Serious or critical axe violations, as short strings. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include('.rd').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The task that builds the reader adds no form control: the filter comes after the first frame. */
export async function filterAfterFirstFrame(page: Page, id: string, library: () => Promise<void>): Promise<void> {
  // Chromium's autofill lays the whole page out in a microtask of any task that adds a <select>
  // or an <input>: with the reader's page, that made the route change a long task at 4× CPU.
  await library();
  await countFrames(page);
  const seen = await page.evaluate(async (id) => {
    const frames = () => (window as unknown as { frames_: number }).frames_;
    const at: { shell?: number; controlsWithShell?: number; control?: number } = {};
    await new Promise<void>((done) => {
      new MutationObserver((_, observer) => {
        // The reader opened, not the one the library rehearses hidden at idle (rehearsal.tsx).
        const shell = [...document.querySelectorAll('.rd')].find((el) => !el.closest('.rd-rehearsal'));
        if (!shell) return;
        if (at.shell === undefined) {
          at.shell = frames();
          at.controlsWithShell = shell.querySelectorAll('select, input, textarea').length;
        }
        if (shell.querySelector('select')) {
          at.control = frames();
          observer.disconnect();
          done();
        }
      }).observe(document.body, { childList: true, subtree: true });
      location.hash = `#/s/${encodeURIComponent(id)}`;
    });
    return at;
  }, id);
  expect(seen.controlsWithShell).toBe(0);
  expect(seen.control!).toBeGreaterThan(seen.shell!);
  // The filter works once it is there (the stub that held its place is gone).
  await expect(page.getByRole('combobox', { name: 'Show' })).toHaveValue('all');
  await expect(page.locator('.rd-select-stub')).toHaveCount(0);
}

/** The task that delivers the worker's reply builds the page but no row: the list comes after the frame that shows it. */
export async function listAfterReplyFrame(page: Page, id: string, library: () => Promise<void>): Promise<void> {
  // The reply's task puts in the session's title and tree; the list's first row comes in a task
  // after the frame that shows them, so neither task carries both.
  await library();
  await countFrames(page);
  const seen = await page.evaluate(async (id) => {
    const frames = () => (window as unknown as { frames_: number }).frames_;
    const at: { titled?: number; rowsWithTitle?: number; row?: number } = {};
    await new Promise<void>((done) => {
      new MutationObserver((_, observer) => {
        // The reader opened, not the one the library rehearses hidden at idle (rehearsal.tsx).
        const shell = [...document.querySelectorAll('.rd')].find((el) => !el.closest('.rd-rehearsal'));
        const title = shell?.querySelector('.rd-title')?.textContent ?? '';
        if (at.titled === undefined && title && title !== 'Opening…') {
          at.titled = frames();
          at.rowsWithTitle = shell!.querySelectorAll('.vl-row').length;
        }
        if (at.titled !== undefined && shell?.querySelector('.vl-row')) {
          at.row = frames();
          observer.disconnect();
          done();
        }
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
      location.hash = `#/s/${encodeURIComponent(id)}`;
    });
    return at;
  }, id);
  expect(seen.rowsWithTitle).toBe(0);
  expect(seen.row!).toBeGreaterThan(seen.titled!);
  // And it still opens at the last message.
  await expect(row(page, 'd7e8f90a')).toBeInViewport();
}

/** Markdown made in the worker replaces the plain text on screen; a fling draws skeletons, then the rows. */
export async function markdownFromWorker(page: Page, library: () => Promise<void>): Promise<void> {
  // A long session of markdown turns, made here: bold, a coloured code block, a web link, a javascript: link and raw HTML.
  const mdId = '0193a5c2-0000-7000-8000-00000000e2e5';
  const lines = [
    JSON.stringify({
      type: 'session',
      version: 3,
      id: mdId,
      timestamp: '2026-11-30T10:00:00.000Z',
      cwd: '/home/test/md',
      title: 'Markdown from the worker',
    }),
  ];
  const idOf = (i: number) => `e${i.toString(16).padStart(7, '0')}`;
  const turns = 300;
  for (let i = 0; i < 2 * turns; i++) {
    const message =
      i % 2 === 0
        ? { role: 'user', content: [{ type: 'text', text: `Question ${i}: **bold ${i}**` }], timestamp: 1 }
        : {
            role: 'assistant',
            content: [
              {
                type: 'text',
                text: `Answer ${i} with [a link](https://example.com/${i}), [bad](javascript:alert(${i})) and <b>raw ${i}</b>.\n\n\`\`\`ts\nconst n${i}: number = ${i};\n\`\`\``,
              },
            ],
            api: 'anthropic-messages',
            provider: 'anthropic',
            model: 'claude',
            stopReason: 'stop',
            timestamp: 2,
          };
    lines.push(JSON.stringify({ type: 'message', id: idOf(i), parentId: i ? idOf(i - 1) : null, timestamp: '2026-11-30T10:00:01.000Z', message }));
  }
  await library();
  await dropFiles(page, [{ name: 'markdown.jsonl', text: lines.join('\n') + '\n' }]);
  await expect(page.locator(`a[href="#/s/${encodeURIComponent(mdId)}"]`).first()).toBeAttached({ timeout: 20_000 });
  await page.goto(`/#/s/${encodeURIComponent(mdId)}`);

  const last = row(page, idOf(2 * turns - 1));
  await expect(last).toBeInViewport();
  const md = last.locator('.md[data-md="html"]');
  await expect(md.locator('pre code.language-ts .hljs-keyword').first()).toHaveText('const');
  await expect(md.getByRole('link', { name: 'a link' })).toHaveAttribute('href', `https://example.com/${2 * turns - 1}`);
  await expect(md.getByRole('link', { name: 'a link' })).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(md.getByRole('link', { name: 'a link' })).toHaveAttribute('target', '_blank');
  // What is not safe stays text.
  await expect(md).toContainText(`[bad](javascript:alert(${2 * turns - 1}))`);
  await expect(md).toContainText(`<b>raw ${2 * turns - 1}</b>`);
  expect(await page.locator('.rd a[href^="javascript" i], .rd b, .rd script').count()).toBe(0);
  await expect(row(page, idOf(2 * turns - 2)).locator('.md[data-md="html"] strong')).toHaveText(`bold ${2 * turns - 2}`);

  // A fling to the top, frame after frame (the way the reader bench scrolls), then a stop.
  const skeletons = await page.locator('.vl').evaluate(async (el) => {
    let most = 0;
    for (let i = 0; i < 30; i++) {
      el.scrollTop -= 2500;
      // The scroll event and the list's render come before this frame's callbacks.
      await new Promise((r) => requestAnimationFrame(r));
      most = Math.max(most, el.querySelectorAll('.vl-skeleton').length);
    }
    el.scrollTop = 0;
    return most;
  });
  expect(skeletons).toBeGreaterThan(0);
  // Once the list is still, the rows themselves replace the skeletons, with their markdown.
  await expect(page.locator('.vl-skeleton')).toHaveCount(0);
  await expect(row(page, idOf(0))).toBeInViewport();
  await expect(row(page, idOf(0)).locator('.md[data-md="html"] strong')).toHaveText('bold 0');
  await expect(row(page, idOf(1)).locator('.md[data-md="html"] .hljs-keyword').first()).toHaveText('const');
  // A jump into the middle (a drag of the scrollbar) ends the same way.
  await page.locator('.vl').evaluate((el) => {
    el.scrollTop = el.scrollHeight / 2;
  });
  await expect(page.locator('.vl-skeleton')).toHaveCount(0);
  await expect(page.locator('.vl-row .rd-row').first()).toBeVisible();
  await expect(page.locator('.vl-row .rd-row .md[data-md="html"]').first()).toBeVisible();
}
