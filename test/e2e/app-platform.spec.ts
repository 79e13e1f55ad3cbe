import { expect, test } from '@playwright/test';
import { card, fixture, importSummary, IMPORTED, makeSession, openEmptyLibrary, SAMPLE, serveBuild, waitForServiceWorker } from './app-helpers.ts';

// The share target, offline reloads and updates are the service worker's.
test.use({ serviceWorkers: 'allow' });

test('Android share target: a multipart POST to /share-target lands in the import report', async ({ page }) => {
  await openEmptyLibrary(page);
  await waitForServiceWorker(page);
  // What Android does when a file is shared to the installed app: a form POST (navigation) to the
  // manifest's share_target action, answered by the service worker with a 303 to the import screen.
  await page.evaluate((text) => {
    const form = document.createElement('form');
    form.method = 'post';
    form.enctype = 'multipart/form-data';
    form.action = '/share-target';
    const input = document.createElement('input');
    input.type = 'file';
    input.name = 'files';
    const data = new DataTransfer();
    data.items.add(new File([text], 'shared.jsonl.txt', { type: 'text/plain' }));
    input.files = data.files;
    form.append(input);
    document.body.append(form);
    form.submit();
  }, fixture(SAMPLE.path).toString('utf8'));
  await expect(importSummary(page)).toHaveText('Added: 1', IMPORTED);
  await expect(page).toHaveURL(/#\/$/);
  await expect(card(page, SAMPLE.title)).toBeVisible();
  // The shared copy is gone from the service worker's cache once taken.
  expect(await page.evaluate(async () => (await (await caches.open('rho-share')).keys()).length)).toBe(0);
});

test('"Open with" (launchQueue): launched files are imported and the single session opens', async ({ page }) => {
  await page.addInitScript(() => {
    // Chromium only fills launchQueue for an installed app opened from the OS; this stands in for it.
    Object.defineProperty(window, 'launchQueue', {
      configurable: true,
      value: {
        setConsumer(consumer: unknown) {
          (window as unknown as { __launch: unknown }).__launch = consumer;
        },
      },
    });
  });
  await openEmptyLibrary(page);
  await page.evaluate(
    (text) => {
      const handle = { kind: 'file', name: 'launched.jsonl', getFile: async () => new File([text], 'launched.jsonl') };
      (window as unknown as { __launch: (p: unknown) => void }).__launch({ files: [handle] });
    },
    makeSession('66666666-0000-4000-8000-000000000001', 'Launched from the desktop'),
  );
  await expect(page).toHaveURL(/#\/s\/66666666-0000-4000-8000-000000000001$/, IMPORTED);
  await page.goto('/#/');
  await expect(card(page, 'Launched from the desktop')).toBeVisible();
});

test('offline after the first visit: the library and a session reload with no network', async ({ page, context }) => {
  await openEmptyLibrary(page);
  await waitForServiceWorker(page);
  await page.getByRole('button', { name: 'Open the sample session' }).click();
  await expect(page).toHaveURL(new RegExp(`#/s/${SAMPLE.id}$`), IMPORTED);
  await context.setOffline(true);
  try {
    await page.goto('/#/');
    await page.reload();
    await expect(card(page, SAMPLE.title)).toBeVisible();
    await page.goto(`/#/s/${SAMPLE.id}`);
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`#/s/${SAMPLE.id}$`));
    await expect(page.getByText(SAMPLE.title).first()).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
});

test('a new service worker is announced, waits for the user, and the reload keeps the library', async ({ page }) => {
  const server = await serveBuild();
  try {
    await page.goto(`${server.url}/`);
    await expect(page.getByRole('heading', { name: 'Your library is empty' })).toBeVisible();
    await waitForServiceWorker(page);
    await page.getByRole('button', { name: 'Open the sample session' }).click();
    await expect(page).toHaveURL(new RegExp(`#/s/${SAMPLE.id}$`), IMPORTED);
    await page.goto(`${server.url}/#/`);
    await expect(card(page, SAMPLE.title)).toBeVisible();
    await expect(page.getByText('Update available')).toHaveCount(0);

    // A new deploy: the same service worker with a different body.
    server.deploy('next version');
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    await expect(page.getByRole('alert').filter({ hasText: 'Update available' })).toBeVisible();
    // Not applied by itself: it waits until the user says so.
    expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(true);

    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Reload' }).click()]);
    await expect(card(page, SAMPLE.title)).toBeVisible();
    await expect(page.getByText('Update available')).toHaveCount(0);
    expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(false);
  } finally {
    await server.close();
  }
});
