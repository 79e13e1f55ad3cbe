// `npx tsx test/tools/sync-screenshots.ts`: the pairing screens for the docs and the README.
// Starts a loopback S3 server (s3rver) and vite's dev server, sets up a space on one device
// through the sync screen, then saves docs/sync-add-device.png ("Add a device": QR code, code,
// link) and docs/sync-pair.png (the other device before "Pair this device"), at phone size.
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
import { invite, setUpS3 } from '../e2e/sync-helpers.ts';
import { S3_KEY, S3_SECRET, startS3 } from '../sync/servers.ts';
import { chromiumLaunchOptions } from './browser.ts';

const root = resolve(import.meta.dirname, '../..');
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } as const;

const s3 = await startS3({ origins: ['*'] });
const server = await createServer({
  root,
  configFile: resolve(root, 'vite.config.ts'),
  logLevel: 'warn',
  server: { port: Number(process.env.SCREENSHOT_PORT ?? 4193), strictPort: false, hmr: false, watch: null },
});
await server.listen();
const base = server.resolvedUrls?.local[0] ?? 'http://localhost:4193/';
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const a = await (await browser.newContext({ ...PHONE, baseURL: base })).newPage();
  await a.goto('/#/sync');
  await setUpS3(a, {
    endpoint: 'https://0123456789abcdef.r2.cloudflarestorage.com',
    bucket: 'sessions',
    prefix: 'rho/',
    key: S3_KEY,
    secret: S3_SECRET,
    name: 'laptop',
  });
  // The shot names R2; the space itself is the loopback server's.
  await a.getByLabel('Endpoint').fill(s3.endpoint);
  await a.getByRole('button', { name: 'Create the space' }).click();
  await a.getByTestId('sync-where').waitFor({ timeout: 60_000 });
  const { link, code } = await invite(a);
  const section = a.getByRole('region', { name: 'Add a device' });
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: resolve(root, 'docs/sync-add-device.png') });

  const b = await (await browser.newContext({ ...PHONE, baseURL: base })).newPage();
  await b.goto(link.replace(/^https?:\/\/[^/]+\//, '/'));
  await b.getByLabel('Code (shown beside the QR code)').fill(code);
  await b.getByRole('button', { name: 'Open the link' }).click();
  await b.getByTestId('pair-where').waitFor({ timeout: 60_000 });
  await b.getByLabel('This device’s name', { exact: true }).fill('phone');
  await b.getByRole('region', { name: 'Pair with a sync space' }).screenshot({ path: resolve(root, 'docs/sync-pair.png') });
  console.log('saved docs/sync-add-device.png and docs/sync-pair.png');
} finally {
  await browser.close();
  await server.close();
  await s3.stop();
}
