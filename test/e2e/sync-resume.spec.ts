// A paired device keeps what it received across a reload, sync survives a tab killed mid-upload, and it works over WebDAV and through a folder another tool syncs: real Chromium, a real S3 server
// (s3rver) behind a pass-through gate that holds one upload until the tab is gone, and a real
// WebDAV server (webdav-server) answering CORS preflights without credentials, as Nextcloud does.
// Waits are for events, never for a time.
import { expect, test } from '@playwright/test';
import { dropFiles } from './app-helpers.ts';
import { type DavServer, type S3Server, S3_KEY, S3_SECRET, startS3, startWebDav } from '../sync/servers.ts';
import { port } from './playwright.config.ts';
import { startGate, type Gate } from './sync-gate.ts';
import { type Device, invite, joinByLink, libraryTexts, mirrorFolder, newDevice, pickerGivesOpfsFolder, sessionOf, setUpS3 } from './sync-helpers.ts';

const SLOW = { timeout: 60_000 };
const devices: Device[] = [];
let s3: S3Server;
let gate: Gate;
let dav: DavServer;

test.beforeAll(async () => {
  s3 = await startS3({ origins: [`http://localhost:${port}`] });
  gate = await startGate(s3.endpoint);
  dav = await startWebDav();
});

test.afterAll(async () => {
  for (const d of devices) await d.context.close();
  await gate?.stop();
  await s3?.stop();
  await dav?.stop();
});

test('a device paired by link receives the library and keeps it across a reload, fetching nothing again; a tab killed mid-upload leaves nothing half-applied there, and the upload resumes when the app opens again', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const a = await newDevice(browser, '/#/');
  devices.push(a);
  const first = sessionOf('019e0000-5a5a-7000-8000-00000000b001', 'There before pairing', ['kept']);
  await dropFiles(a.page, [{ name: 'first.jsonl', text: first }]);
  await expect(a.page.locator('.session-card')).toHaveCount(1, SLOW);
  await a.page.goto('/#/sync');
  await setUpS3(a.page, { endpoint: gate.url, bucket: s3.bucket, prefix: 'resume/', key: S3_KEY, secret: S3_SECRET, name: 'laptop' });
  await a.page.getByRole('button', { name: 'Create the space' }).click();
  await expect(a.page.getByTestId('sync-state')).toContainText('Last sync', SLOW);
  const b = await joinByLink(browser, a.page, 'phone');
  devices.push(b);
  await expect(a.page.locator('tr[data-device="phone"]')).toBeVisible(SLOW);
  // Received at pairing: in the device's own private file system, not only in its worker.
  await expect.poll(() => libraryTexts(b.page), SLOW).toEqual([first]);

  // A session of over 1 MiB, so its pack is a real upload, and the other device reads its header
  // from its first bytes (a ranged GET through Chromium's CORS) before reading it whole.
  const text = sessionOf(
    '019e0000-5a5a-7000-8000-00000000b002',
    'Long one',
    Array.from({ length: 1900 }, (_, i) => `line ${i} ${'x'.repeat(600)}`),
  );
  await a.page.goto('/#/');
  const held = gate.holdNextPut();
  await dropFiles(a.page, [{ name: 'long.jsonl', text }]);
  expect(await held).toContain('/resume/rs1/');
  await a.page.close();
  // The upload never completed: the other device has nothing of it (a round there sees no pack).
  await b.page.getByRole('button', { name: 'Sync now' }).click();
  await expect(b.page.getByTestId('sync-state')).toContainText('Last sync', SLOW);
  expect(await libraryTexts(b.page)).toEqual([first]);
  // The app opens again on the laptop: the session goes out whole.
  a.page = await a.context.newPage();
  await a.page.goto('/#/sync');
  const both = [first, text].sort();
  await expect.poll(() => libraryTexts(b.page), SLOW).toEqual(both);
  expect(gate.ranged.filter((g) => g.url.includes('/resume/rs1/') && /^bytes=0-\d+$/.test(g.range))).not.toEqual([]);

  // The phone reloads with only itself talking to the space: its library is there, nothing is fetched again.
  await a.context.close();
  const fetched = gate.gets.length;
  await b.page.reload();
  await b.page.getByRole('button', { name: 'Sync now' }).click();
  await expect(b.page.getByTestId('sync-state')).toContainText('Last sync', SLOW);
  expect(gate.gets.slice(fetched)).toEqual([]);
  expect(await libraryTexts(b.page)).toEqual(both);
  await b.page.goto('/#/');
  await expect(b.page.locator('.session-card')).toHaveCount(2, SLOW);
});

test('WebDAV: set up with Check, pair, and a session reaches the other device', async ({ browser }) => {
  test.setTimeout(180_000);
  const a = await newDevice(browser);
  devices.push(a);
  await a.page.getByLabel('Where your sessions are stored').selectOption('webdav');
  await a.page.getByLabel('Folder URL').fill(dav.url);
  await a.page.getByRole('textbox', { name: 'User' }).fill(dav.username);
  await a.page.getByLabel('Password or app token').fill(dav.password);
  await a.page.getByLabel('This device’s name (other devices list it)').fill('nextcloud laptop');
  await a.page.getByRole('button', { name: 'Check' }).click();
  await expect(a.page.getByRole('status').filter({ hasText: 'Everything works' })).toBeVisible(SLOW);
  await a.page.getByRole('button', { name: 'Create the space' }).click();
  await expect(a.page.getByTestId('sync-where')).toContainText(`WebDAV ${dav.url}`, SLOW);
  const b = await joinByLink(browser, a.page, 'tablet');
  devices.push(b);
  const text = sessionOf('019e0000-5a5a-7000-8000-00000000c003', 'Over WebDAV', ['hello']);
  await a.page.goto('/#/');
  await dropFiles(a.page, [{ name: 'dav.jsonl', text }]);
  await expect.poll(() => libraryTexts(b.page), SLOW).toEqual([text]);
});

test('a folder another tool syncs: each device writes its own copy of the folder, the tool carries the files, sessions go both ways', async ({ browser }) => {
  test.setTimeout(180_000);
  // The directory picker cannot be driven: each device is handed a real directory of its own
  // origin private file system, and the test copies new files between the two folders as
  // Syncthing would (files are only added: each device writes only its own, once).
  const a = await newDevice(browser);
  devices.push(a);
  await a.page.getByLabel('Where your sessions are stored').selectOption('folder');
  await pickerGivesOpfsFolder(a.page, 'Synced');
  await a.page.getByRole('button', { name: 'Choose the folder…' }).click();
  await expect(a.page.getByText('Synced', { exact: true })).toBeVisible();
  await a.page.getByLabel('This device’s name (other devices list it)').fill('desktop');
  await a.page.getByRole('button', { name: 'Create the space' }).click();
  await expect(a.page.getByTestId('sync-where')).toBeVisible(SLOW);
  const { link, code } = await invite(a.page);

  const b = await newDevice(browser, link.replace(/^https?:\/\/[^/]+/, ''));
  devices.push(b);
  expect(await mirrorFolder(a.page, b.page, 'Synced')).toBeGreaterThan(0);
  await b.page.getByLabel('Code (shown beside the QR code)').fill(code);
  await b.page.getByRole('button', { name: 'Open the link' }).click();
  await pickerGivesOpfsFolder(b.page, 'Synced');
  await b.page.getByRole('button', { name: 'Choose that folder on this device…' }).click();
  await b.page.getByLabel('This device’s name', { exact: true }).fill('laptop');
  await b.page.getByRole('button', { name: 'Pair this device' }).click();
  await expect(b.page.getByTestId('sync-where')).toBeVisible(SLOW);

  const one = sessionOf('019e0000-5a5a-7000-8000-00000000d004', 'In a synced folder', ['from the desktop']);
  await a.page.goto('/#/');
  await dropFiles(a.page, [{ name: 'folder.jsonl', text: one }]);
  // the tool carries what the desktop wrote (once its pack is there), and the laptop finds it
  await expect.poll(() => mirrorFolder(a.page, b.page, 'Synced'), SLOW).toBeGreaterThan(0);
  await expect.poll(() => libraryTexts(b.page), SLOW).toEqual([one]);
  const two = sessionOf('019e0000-5a5a-7000-8000-00000000d004', 'In a synced folder', ['from the desktop', 'from the laptop']);
  await b.page.goto('/#/');
  await dropFiles(b.page, [{ name: 'folder.jsonl', text: two }]);
  await expect
    .poll(async () => {
      await mirrorFolder(b.page, a.page, 'Synced');
      return libraryTexts(a.page);
    }, SLOW)
    .toEqual([two]);
});
