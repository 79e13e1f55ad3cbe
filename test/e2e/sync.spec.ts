// Sync between two devices in real Chromium: two browser contexts (two libraries, two workers)
// and a real S3 server (s3rver) on loopback with the bucket's CORS rule for the app's origin, so
// every request is a real cross-origin request with its preflight. The devices reach it through a
// fault proxy, a pass-through until a test turns its faults on. Pairing by link (a wrong code
// first), appends on each side showing on the other with no tap, both offline then online, 500s,
// dropped connections, cut-off bodies and slow answers, a deletion moving to the other device's
// trash, and a bucket with no CORS rule. Every wait is for an event (a DOM change, a file's bytes), never a time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { card, dropFiles } from './app-helpers.ts';
import { type FaultProxy, type S3Server, S3_KEY, S3_SECRET, startFaultProxy, startS3 } from '../sync/servers.ts';
import { port } from './playwright.config.ts';
import { type Device, invite, libraryTexts, newDevice, pairingPicture, pictureAsY4m, sessionOf, setUpS3 } from './sync-helpers.ts';

const ORIGIN = `http://localhost:${port}`;
const ID = '019e0000-5a5a-7000-8000-00000000a001';
const SLOW = { timeout: 60_000 };

test.describe.configure({ mode: 'serial' });

let s3: S3Server;
let proxy: FaultProxy;
let bare: S3Server;
let a: Device;
let b: Device;

test.beforeAll(async () => {
  s3 = await startS3({ origins: [ORIGIN] });
  proxy = await startFaultProxy(s3.endpoint, ['pass'], 400);
  bare = await startS3({ cors: false, bucket: 'nocors' });
});

test.afterAll(async () => {
  await a?.context.close();
  await b?.context.close();
  await proxy?.stop();
  await s3?.stop();
  await bare?.stop();
});

test('a bucket without the CORS rule: Check says "CORS blocked" and shows the rule to paste', async ({ browser }) => {
  const d = await newDevice(browser);
  await setUpS3(d.page, { endpoint: bare.endpoint, bucket: bare.bucket, prefix: 'rho/', key: S3_KEY, secret: S3_SECRET, name: 'laptop' });
  await d.page.getByRole('button', { name: 'Check' }).click();
  const problem = d.page.locator('.sync-problem');
  await expect(problem).toHaveAttribute('data-code', 'cors-blocked', SLOW);
  await expect(problem.getByText('CORS blocked')).toBeVisible();
  await expect(problem.getByText('Add the CORS rule below')).toBeVisible();
  await expect(problem.getByTestId('cors-rule')).toContainText(`"AllowedOrigins": [\n    "${ORIGIN}"`);
  await d.context.close();
});

test('pair by link: a wrong code is refused, the right one shows where sessions go, "Pair this device" joins', async ({ browser }) => {
  test.setTimeout(180_000);
  a = await newDevice(browser);
  await setUpS3(a.page, { endpoint: proxy.url, bucket: s3.bucket, prefix: 'e2e/', key: S3_KEY, secret: S3_SECRET, name: 'laptop' });
  await a.page.getByRole('button', { name: 'Create the space' }).click();
  await expect(a.page.getByTestId('sync-where')).toContainText(`S3 bucket ${s3.bucket}`, SLOW);
  const { link, code } = await invite(a.page);
  expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);

  b = await newDevice(browser, link.replace(/^https?:\/\/[^/]+/, ''));
  // The fragment is taken and the address no longer holds it.
  await expect(b.page).toHaveURL(/#\/sync$/);
  await expect(b.page.getByLabel('Pairing link')).toHaveValue(link);
  await b.page.getByLabel('Code (shown beside the QR code)').fill(code.startsWith('A') ? 'BBBBB-BBBBB' : 'AAAAA-AAAAA');
  await b.page.getByRole('button', { name: 'Open the link' }).click();
  await expect(b.page.getByRole('alert')).toContainText('This code does not open the link', SLOW);
  await b.page.getByLabel('Code (shown beside the QR code)').fill(code.toLowerCase());
  await b.page.getByRole('button', { name: 'Open the link' }).click();
  await expect(b.page.getByTestId('pair-where')).toContainText(`S3 bucket ${s3.bucket}`, SLOW);
  await expect(b.page.getByText('laptop', { exact: true })).toBeVisible();
  await b.page.getByLabel('This device’s name', { exact: true }).fill('phone');
  await b.page.getByRole('button', { name: 'Pair this device' }).click();
  await expect(b.page.getByTestId('sync-where')).toContainText(`S3 bucket ${s3.bucket}`, SLOW);
  // Each lists both devices once both have written.
  await expect(a.page.locator('tr[data-device="phone"]')).toBeVisible(SLOW);
  await expect(b.page.locator('tr[data-device="laptop"]')).toBeVisible(SLOW);
});

test('a picture of the QR code gives the pairing link (the bundled decoder, where the browser has no BarcodeDetector)', async ({ browser }) => {
  // The camera cannot be driven here: the same decoder reads a real picture of the code as the app drew it.
  const shot = await pairingPicture(a.page);
  const link = await a.page.getByTestId('pair-link').inputValue();
  const d = await newDevice(browser);
  // This Chromium (Linux) has no BarcodeDetector, so the bundled decoder is what reads it.
  expect(await d.page.evaluate(() => 'BarcodeDetector' in window)).toBe(false);
  await d.page.getByLabel('Picture of a pairing QR code').setInputFiles({ name: 'qr.png', mimeType: 'image/png', buffer: shot });
  await expect(d.page.getByLabel('Pairing link')).toHaveValue(link, SLOW);
  await d.context.close();
});

test('the camera reads the QR code (a video of it played by Chromium’s fake camera) and gives the pairing link', async () => {
  // The camera cannot be driven here: Chromium's fake capture device plays a real picture of the
  // code this app rendered on the other device, and the app reads it from getUserMedia's frames
  // with its bundled decoder (this Chromium has no BarcodeDetector).
  const shot = await pairingPicture(a.page);
  const link = await a.page.getByTestId('pair-link').inputValue();
  const video = test.info().outputPath('qr.y4m');
  mkdirSync(dirname(video), { recursive: true });
  writeFileSync(video, await pictureAsY4m(a.page, shot));
  const { executablePath, args } = chromiumLaunchOptions('test');
  const camera = await chromium.launch({
    executablePath,
    args: [...args, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
  });
  try {
    const context = await camera.newContext({ baseURL: ORIGIN, permissions: ['camera'] });
    const page = await context.newPage();
    await page.goto('/#/sync');
    await page.getByRole('button', { name: 'Scan with the camera' }).click();
    await expect(page.getByLabel('Pairing link')).toHaveValue(link, SLOW);
    await expect(page.getByRole('button', { name: 'Scan with the camera' })).toBeVisible(); // the camera is let go
  } finally {
    await camera.close();
  }
});

test('appends on each side appear on the other with no tap', async () => {
  const one = sessionOf(ID, 'Tide tables', ['first']);
  await a.page.goto('/#/');
  await b.page.goto('/#/');
  await dropFiles(a.page, [{ name: 'tide.jsonl', text: one }]);
  await expect.poll(() => libraryTexts(b.page), SLOW).toEqual([one]);
  const two = sessionOf(ID, 'Tide tables', ['first', 'from the phone']);
  await dropFiles(b.page, [{ name: 'tide.jsonl', text: two }]);
  await expect.poll(() => libraryTexts(a.page), SLOW).toEqual([two]);
  await expect(a.page.locator('.session-card').first()).toBeVisible();
});

test('both offline, both append to the same session, both online: both versions on both, every byte kept', async () => {
  const base = sessionOf(ID, 'Tide tables', ['first', 'from the phone']);
  await expect.poll(() => libraryTexts(b.page), SLOW).toEqual([base]);
  await a.context.setOffline(true);
  await b.context.setOffline(true);
  const fromA = sessionOf(ID, 'Tide tables', ['first', 'from the phone', 'laptop, offline']);
  const fromB = sessionOf(ID, 'Tide tables', ['first', 'from the phone', 'phone, offline']);
  await dropFiles(a.page, [{ name: 'tide.jsonl', text: fromA }]);
  await dropFiles(b.page, [{ name: 'tide.jsonl', text: fromB }]);
  await expect.poll(() => libraryTexts(a.page), SLOW).toEqual([fromA]);
  await expect.poll(() => libraryTexts(b.page), SLOW).toEqual([fromB]);
  await a.context.setOffline(false);
  await b.context.setOffline(false);
  const both = [fromA, fromB].sort();
  await expect.poll(() => libraryTexts(a.page), SLOW).toEqual(both);
  await expect.poll(() => libraryTexts(b.page), SLOW).toEqual(both);
});

test('through 500s, dropped connections, cut-off bodies and slow answers both devices converge, nothing lost', async () => {
  test.setTimeout(180_000);
  const before = await libraryTexts(a.page);
  await expect.poll(() => libraryTexts(b.page), SLOW).toEqual(before);
  proxy.setSchedule(['pass', '500', 'pass', 'drop', 'pass', 'truncate', 'pass', 'slow', 'pass', 'pass']);
  // Big enough that a cut-off body is a real part of a pack.
  const fromA = sessionOf(
    '019e0000-5a5a-7000-8000-00000000a002',
    'Buoy readings',
    Array.from({ length: 60 }, (_, i) => `reading ${i} ${'z'.repeat(900)}`),
  );
  const fromB = sessionOf('019e0000-5a5a-7000-8000-00000000a003', 'Chart notes', ['from the phone, through a bad line']);
  await dropFiles(a.page, [{ name: 'buoy.jsonl', text: fromA }]);
  await dropFiles(b.page, [{ name: 'chart.jsonl', text: fromB }]);
  const all = [...before, fromA, fromB].sort();
  await expect.poll(() => libraryTexts(a.page), { timeout: 150_000 }).toEqual(all);
  await expect.poll(() => libraryTexts(b.page), { timeout: 150_000 }).toEqual(all);
  proxy.setSchedule(['pass']);
  for (const fault of ['500', 'drop', 'truncate', 'slow'] as const) expect(proxy.counts[fault], fault).toBeGreaterThan(0);
});

test('a session deleted on one device moves to the trash on the other, and Undo there brings it back', async () => {
  const text = sessionOf('019e0000-5a5a-7000-8000-00000000a004', 'Harbour log', ['moored at nine']);
  await dropFiles(a.page, [{ name: 'harbour.jsonl', text }]);
  await expect.poll(async () => (await libraryTexts(b.page)).includes(text), SLOW).toBe(true);
  await card(a.page, 'Harbour log').getByLabel('Actions for Harbour log').click();
  await card(a.page, 'Harbour log').getByRole('group', { name: 'Session actions' }).getByRole('button', { name: 'Delete' }).click();
  await expect.poll(async () => (await libraryTexts(b.page)).includes(text), SLOW).toBe(false);
  await b.page.goto('/#/sync');
  const trashed = b.page.locator('.sync-trashed li').filter({ hasText: 'Harbour log' });
  await expect(trashed).toBeVisible(SLOW);
  await trashed.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(async () => (await libraryTexts(b.page)).includes(text), SLOW).toBe(true);
  // The device that deleted it does not take it back from the space.
  expect(await libraryTexts(a.page)).not.toContain(text);
  // The devices as the space shows them: name, last seen, what each wrote (the laptop: the tide
  // table, the buoy readings, the harbour log; the phone: the tide table and the chart notes).
  const laptop = b.page.locator('tr[data-device="laptop"]');
  const phone = b.page.locator('tr[data-device="phone"]');
  await expect(laptop.locator('td').nth(2)).toHaveText(/^3 sessions, [\d.,]+ (KB|MB)$/);
  await expect(phone.locator('td').nth(0)).toHaveText('phone (this device)');
  await expect(phone.locator('td').nth(2)).toHaveText(/^2 sessions, [\d.,]+ (KB|MB)$/);
  for (const row of [laptop, phone]) await expect(row.locator('td').nth(1)).not.toHaveText('never');
  await expect(b.page.getByText(/^The space holds [\d.,]+ (KB|MB)\./)).toBeVisible();
});
