import { expect, test } from '@playwright/test';

test.describe('the service worker', () => {
  // What is tested is its control and cache.
  test.use({ serviceWorkers: 'allow' });

  test('the shell loads, the service worker takes control, and an offline reload still shows it', async ({ page, context }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Rho Sessions' })).toBeVisible();
    // The first visit is controlled (clients.claim on activate).
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Rho Sessions' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open the sample session' })).toBeVisible();
    await context.setOffline(false);
  });
});

test('control: without the service worker an offline reload fails (so the test above is real)', async ({ browser }) => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Rho Sessions' })).toBeVisible();
  await context.setOffline(true);
  await expect(page.reload()).rejects.toThrow();
  await context.close();
});

test('the module worker answers (the library list comes from it); the manifest is served and names its icons, which are real PNGs', async ({
  page,
  request,
}) => {
  await page.goto('/');
  await test.step('the module worker answers: the library list comes from it', async () => {
    // The empty state is shown only once the worker has answered listSessions (an error shows an alert).
    await expect(page.getByRole('heading', { name: 'Your library is empty' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  await test.step('the manifest is served and names its icons, which are real PNGs', async () => {
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBeTruthy();
    const manifest = await (await request.get(href!)).json();
    expect(manifest.name).toBe('Rho Sessions');
    expect(manifest.display).toBe('standalone');
    const purposes = manifest.icons.map((i: { purpose?: string }) => i.purpose ?? 'any');
    expect(purposes).toContain('maskable');
    expect(manifest.icons.some((i: { sizes: string }) => i.sizes === '512x512')).toBe(true);
    for (const icon of manifest.icons) {
      const res = await request.get(new URL(icon.src, page.url() + href).toString());
      expect(res.status(), icon.src).toBe(200);
      const bytes = await res.body();
      expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    }
  });
});
