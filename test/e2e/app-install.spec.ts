import { expect, test } from '@playwright/test';
import { fixture, importSummary, IMPORTED, openEmptyLibrary, SAMPLE, dropFiles } from './app-helpers.ts';

// One page for the checks on an empty library; the import that fills it comes last, after a reload
// that starts the page with persist() watched.
test('standalone mode declared, the Install button, a long import cancelled, persistent storage asked for after the first import', async ({ page }) => {
  test.setTimeout(150_000);
  await test.step('the page declares standalone mode without a deprecated meta tag, and logs no deprecation', async () => {
    const logged: string[] = [];
    page.on('console', (m) => logged.push(m.text()));
    await openEmptyLibrary(page);
    await expect(page.locator('meta[name="mobile-web-app-capable"]')).toHaveAttribute('content', 'yes');
    await expect(page.locator('meta[name="apple-mobile-web-app-capable"]')).toHaveCount(0);
    // iOS takes standalone mode from the manifest's display (Safari 11.3 and later).
    const manifest = await page.evaluate(async () => {
      const href = document.querySelector('link[rel="manifest"]')?.getAttribute('href');
      return href ? ((await (await fetch(href)).json()) as { display?: string }) : null;
    });
    expect(manifest?.display).toBe('standalone');
    expect(logged.filter((t) => /deprecated/i.test(t))).toEqual([]);
  });

  await test.step('an Install button appears when the browser offers to install, and opens its prompt', async () => {
    await expect(page.getByRole('button', { name: 'Install' })).toHaveCount(0);
    // Chromium fires beforeinstallprompt only when its engagement heuristics are met; this is that event.
    await page.evaluate(() => {
      const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & Record<string, unknown>;
      event.prompt = async () => {
        (window as unknown as { __prompted: boolean }).__prompted = true;
      };
      event.userChoice = Promise.resolve({ outcome: 'accepted' });
      window.dispatchEvent(event);
    });
    await page.getByRole('button', { name: 'Install' }).click();
    expect(await page.evaluate(() => (window as unknown as { __prompted?: boolean }).__prompted)).toBe(true);
    await expect(page.getByRole('button', { name: 'Install' })).toHaveCount(0);
  });

  await test.step('a long import shows its progress and can be cancelled', async () => {
    const BIG = '88888888-0000-4000-8000-000000000001';
    await page.evaluate(
      (id) =>
        new Promise<void>((taken) => {
          navigator.locks.request(`rho-sessions:write:${id}`, () => {
            taken();
            return new Promise<void>((release) => Object.assign(window, { releaseLock: release }));
          });
        }),
      BIG,
    );
    // About 60 MB of one valid session, made in the page so nothing big crosses from the test.
    await page.evaluate(() => {
      const head = JSON.stringify({
        type: 'session',
        version: 3,
        id: '88888888-0000-4000-8000-000000000001',
        timestamp: '2026-11-29T10:00:00.000Z',
        cwd: '/home/test/big',
      });
      const lines = [head];
      const pad = 'x'.repeat(6000);
      let parent: string | null = null;
      for (let i = 0; i < 10_000; i++) {
        const id = i.toString(16).padStart(8, '0');
        lines.push(
          JSON.stringify({
            type: 'message',
            id,
            parentId: parent,
            timestamp: '2026-11-29T10:00:01.000Z',
            message: { role: 'user', content: [{ type: 'text', text: pad }], timestamp: i },
          }),
        );
        parent = id;
      }
      const data = new DataTransfer();
      data.items.add(new File([lines.join('\n') + '\n'], 'big.jsonl'));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    const panel = page.getByRole('region', { name: 'Import' });
    await expect(panel.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
    // The worker now waits for the session's write lock the page holds (as another tab writing it
    // would): the cancel lands mid-import however fast this machine is.
    await expect
      .poll(() => page.evaluate(async (id) => (await navigator.locks.query()).pending?.some((l) => l.name === `rho-sessions:write:${id}`), BIG), IMPORTED)
      .toBe(true);
    await panel.getByRole('button', { name: 'Cancel' }).click();
    // "Cancelling…" lasts only until the worker reaches its next check, which can be too short to
    // observe; what must hold is the outcome: the import reports itself cancelled and stores nothing.
    await expect(panel).toContainText('Import cancelled', IMPORTED);
    await page.evaluate(() => (window as unknown as { releaseLock(): void }).releaseLock());
    await expect(page.getByRole('heading', { name: 'Your library is empty' })).toBeVisible();
  });

  await test.step('after the first import the page asks for persistent storage, and the meter shows usage', async () => {
    await page.addInitScript(() => {
      // Record the request (Chromium decides by its own heuristics; the answer is not the point here).
      const original = navigator.storage.persist.bind(navigator.storage);
      navigator.storage.persist = async () => {
        (window as unknown as { __persistAsked: number }).__persistAsked = ((window as unknown as { __persistAsked?: number }).__persistAsked ?? 0) + 1;
        return original();
      };
    });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Your library is empty' })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __persistAsked?: number }).__persistAsked ?? 0)).toBe(0);
    await dropFiles(page, [{ name: 'welcome.jsonl', text: fixture(SAMPLE.path).toString('utf8') }]);
    await expect(importSummary(page)).toHaveText('Added: 1', IMPORTED);
    await expect.poll(() => page.evaluate(() => (window as unknown as { __persistAsked?: number }).__persistAsked ?? 0)).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByText(/^Browser's estimate: .+ of .+ used$/)).toBeVisible();
    await expect(page.locator('#storage-meter')).toHaveAttribute('value', /.+/);
  });
});

test.describe('on an iPhone', () => {
  test.use({
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    viewport: { width: 390, height: 844 },
  });
  test('the empty state advises installing before importing, and how', async ({ page }) => {
    await openEmptyLibrary(page);
    const advice = page.getByRole('note').filter({ hasText: 'install first' });
    await expect(advice).toBeVisible();
    await expect(advice).toContainText('Add to Home Screen');
  });
});
