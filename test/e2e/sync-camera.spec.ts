// Scanning a pairing code with the camera when no code can be read, in real Chromium: its fake
// capture device (a real getUserMedia stream) plays a picture with no code in it; a canvas's
// capture stream that is never drawn is a camera giving no picture. The scan says what to try,
// goes on, and offers Cancel and pasting the link. Waits are for DOM changes, never for a time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Browser, chromium, expect, test } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { port } from './playwright.config.ts';

const ORIGIN = `http://localhost:${port}`;
const SLOW = { timeout: 60_000 };

/** A one-frame Y4M video (4:2:0) of a soft gradient, a desk in dim light: nothing like a QR code. */
function plainPicture(w: number, h: number): Buffer {
  const y = Buffer.alloc(w * h);
  for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) y[j * w + i] = 60 + Math.round((80 * (i + j)) / (w + h));
  const chroma = Buffer.alloc((w / 2) * (h / 2), 128);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${w} H${h} F30:1 Ip A1:1 C420jpeg\nFRAME\n`), y, chroma, chroma]);
}

async function withCamera(args: string[], run: (browser: Browser) => Promise<void>): Promise<void> {
  const options = chromiumLaunchOptions('test');
  const browser = await chromium.launch({ executablePath: options.executablePath, args: [...options.args, ...args] });
  try {
    await run(browser);
  } finally {
    await browser.close();
  }
}

test('a camera that sees no code: the scan says what to try, goes on, and offers Cancel and pasting the link', async () => {
  const video = test.info().outputPath('plain.y4m');
  mkdirSync(dirname(video), { recursive: true });
  writeFileSync(video, plainPicture(320, 240));
  await withCamera(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${video}`], async (browser) => {
    const context = await browser.newContext({ baseURL: ORIGIN, permissions: ['camera'] });
    const page = await context.newPage();
    await page.goto('/#/sync');
    await page.getByRole('button', { name: 'Scan with the camera' }).click();
    const hint = page.getByRole('status').filter({ hasText: 'Still looking for a code' });
    await expect(hint).toContainText('Hold it steady, let it fill the frame, and add more light — or paste the link instead.', SLOW);
    // Still scanning: the camera is held and its picture shown.
    await expect(page.getByRole('button', { name: 'Stop the camera' })).toBeVisible();
    const camera = page.locator('video.sync-camera');
    await expect(camera).toBeVisible();
    expect(await camera.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(320);

    await hint.getByRole('button', { name: 'Paste the link' }).click();
    await expect(page.getByRole('button', { name: 'Scan with the camera' })).toBeVisible();
    await expect(page.getByLabel('Pairing link')).toBeFocused();
    expect(await camera.evaluate((v: HTMLVideoElement) => v.srcObject)).toBeNull();

    await page.getByRole('button', { name: 'Scan with the camera' }).click();
    await hint.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('button', { name: 'Scan with the camera' })).toBeVisible();
    await expect(hint).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});

test('a camera that gives no picture says so, and offers Cancel and pasting the link', async () => {
  await withCamera([], async (browser) => {
    const context = await browser.newContext({ baseURL: ORIGIN });
    // The camera: a canvas's capture stream at no frame rate, never drawn, so it never gives a frame.
    await context.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = async () => document.createElement('canvas').captureStream(0);
    });
    const page = await context.newPage();
    await page.goto('/#/sync');
    await page.getByRole('button', { name: 'Scan with the camera' }).click();
    const hint = page.getByRole('status').filter({ hasText: 'The camera gives no picture' });
    await expect(hint).toContainText('paste the link instead', SLOW);
    expect(await page.locator('video.sync-camera').evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(0);
    await hint.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('button', { name: 'Scan with the camera' })).toBeVisible();
  });
});
