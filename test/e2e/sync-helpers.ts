// Helpers of the sync specs: a device is a browser context with the app open; a test reads what a
// device's library holds straight from its OPFS (not through the app), to compare bytes.
import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';

export interface Device {
  context: BrowserContext;
  page: Page;
}

export async function newDevice(browser: Browser, path = '/#/sync', baseURL?: string): Promise<Device> {
  const context = await browser.newContext(baseURL ? { baseURL } : {});
  const page = await context.newPage();
  await page.goto(path);
  return { context, page };
}

/** Fills the setup form for an S3 bucket and creates the space. */
export async function setUpS3(page: Page, s: { endpoint: string; bucket: string; prefix: string; key: string; secret: string; name: string }): Promise<void> {
  await page.getByLabel('Where your sessions are stored').selectOption('s3');
  await page.getByLabel('Endpoint').fill(s.endpoint);
  await page.getByLabel('Region').fill('us-east-1');
  await page.getByRole('textbox', { name: 'Bucket', exact: true }).fill(s.bucket);
  await page.getByLabel('Prefix (a folder inside the bucket)').fill(s.prefix);
  await page.getByLabel('Access key id').fill(s.key);
  await page.getByLabel('Secret access key').fill(s.secret);
  await page.getByLabel('This device’s name (other devices list it)').fill(s.name);
}

/** "Add a device" on `page`: the link and the code it shows. */
export async function invite(page: Page): Promise<{ link: string; code: string }> {
  await page.getByRole('button', { name: 'Add a device' }).click();
  const link = page.getByTestId('pair-link');
  await expect(link).toHaveValue(/#pair=e\./, { timeout: 60_000 });
  return { link: await link.inputValue(), code: (await page.getByTestId('pair-code').textContent()) ?? '' };
}

/** Every session file of a device's library, as text, sorted (read from OPFS by the test itself). */
export async function libraryTexts(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    let dir: FileSystemDirectoryHandle;
    try {
      dir = await root.getDirectoryHandle('sessions');
    } catch {
      return [];
    }
    const out: string[] = [];
    for await (const [name, h] of (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries())
      if (h.kind === 'file' && name.endsWith('.jsonl')) out.push(await (await (h as FileSystemFileHandle).getFile()).text());
    return out.sort();
  });
}

/** A session's text as a pi file: header and `n` user messages, the ith saying `said[i]`. */
export function sessionOf(id: string, title: string, said: string[], parentOf = (i: number) => (i ? `${id.slice(0, 4)}m${i - 1}` : null)): string {
  const t = '2026-11-29T10:00:00.000Z';
  const lines: object[] = [{ type: 'session', version: 3, id, timestamp: t, cwd: '/home/test/project', title }];
  said.forEach((text, i) =>
    lines.push({
      type: 'message',
      id: `${id.slice(0, 4)}m${i}`,
      parentId: parentOf(i),
      timestamp: t,
      message: { role: 'user', content: [{ type: 'text', text }], timestamp: i + 1 },
    }),
  );
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

/** A second device joins `a`'s space by its link and code; resolves once it syncs there. */
export async function joinByLink(browser: Browser, a: Page, name: string): Promise<Device> {
  const { link, code } = await invite(a);
  const b = await newDevice(browser, link.replace(/^https?:\/\/[^/]+/, ''), new URL(a.url()).origin);
  await b.page.getByLabel('Code (shown beside the QR code)').fill(code);
  await b.page.getByRole('button', { name: 'Open the link' }).click();
  await b.page.getByLabel('This device’s name', { exact: true }).fill(name);
  await b.page.getByRole('button', { name: 'Pair this device' }).click();
  await expect(b.page.getByTestId('sync-where')).toBeVisible({ timeout: 60_000 });
  return b;
}

/**
 * The pairing QR code as `page` draws it, as PNG bytes: its SVG drawn into a canvas at the size it
 * has on the page. Not a screenshot of the element: a sync round finishing meanwhile changes the
 * layout above it, and the capture then holds the page shifted, the code cut off.
 */
export async function pairingPicture(page: Page): Promise<Buffer> {
  const base64 = await page.getByRole('img', { name: 'Pairing QR code' }).evaluate(async (svg) => {
    const { width, height } = svg.getBoundingClientRect();
    const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(svg)], { type: 'image/svg+xml' }));
    try {
      const img = new Image();
      img.src = url;
      await img.decode();
      const canvas = new OffscreenCanvas(Math.round(width), Math.round(height));
      canvas.getContext('2d')?.drawImage(img, 0, 0, canvas.width, canvas.height);
      const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
      let text = '';
      for (const b of bytes) text += String.fromCharCode(b);
      return btoa(text);
    } finally {
      URL.revokeObjectURL(url);
    }
  });
  return Buffer.from(base64, 'base64');
}

/**
 * A picture (PNG bytes) as a one-frame Y4M video (4:2:0), the format Chromium's fake camera plays
 * (`--use-file-for-fake-video-capture`): the pixels are read by `page` (createImageBitmap), the
 * planes computed here (BT.601, full range; odd edges dropped).
 */
export async function pictureAsY4m(page: Page, png: Buffer): Promise<Buffer> {
  const { width, height, rgba } = await page.evaluate(
    async (bytes) => {
      const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      return { width: bitmap.width, height: bitmap.height, rgba: [...ctx.getImageData(0, 0, bitmap.width, bitmap.height).data] };
    },
    [...png],
  );
  const w = width & ~1;
  const h = height & ~1;
  const y = Buffer.alloc(w * h);
  const u = Buffer.alloc((w / 2) * (h / 2));
  const v = Buffer.alloc((w / 2) * (h / 2));
  const at = (i: number, j: number) => (j * width + i) * 4;
  for (let j = 0; j < h; j++)
    for (let i = 0; i < w; i++) {
      const p = at(i, j);
      y[j * w + i] = Math.round(0.299 * rgba[p] + 0.587 * rgba[p + 1] + 0.114 * rgba[p + 2]);
    }
  for (let j = 0; j < h; j += 2)
    for (let i = 0; i < w; i += 2) {
      const p = at(i, j);
      const [r, g, b] = [rgba[p], rgba[p + 1], rgba[p + 2]];
      u[(j / 2) * (w / 2) + i / 2] = Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
      v[(j / 2) * (w / 2) + i / 2] = Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${w} H${h} F30:1 Ip A1:1 C420jpeg\nFRAME\n`), y, u, v]);
}

/**
 * The directory picker cannot be driven: `showDirectoryPicker` is handed a real directory of the
 * page's origin private file system (the same FileSystemDirectoryHandle interface), `name` under its root.
 */
export async function pickerGivesOpfsFolder(page: Page, name: string): Promise<void> {
  await page.evaluate((folder) => {
    (window as unknown as { showDirectoryPicker(): Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = async () =>
      (await navigator.storage.getDirectory()).getDirectoryHandle(folder, { create: true });
  }, name);
}

/**
 * What Syncthing or Dropbox does between two devices' copies of a folder: every file of `from`'s
 * folder that `to`'s lacks is copied there (whole, written once). Gives how many were copied.
 */
export async function mirrorFolder(from: Page, to: Page, name: string): Promise<number> {
  const files = await from.evaluate(async (folder) => {
    const out: { path: string; bytes: number[] }[] = [];
    const walk = async (dir: FileSystemDirectoryHandle, at: string) => {
      for await (const [n, h] of (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries())
        if (h.kind === 'directory') await walk(h as FileSystemDirectoryHandle, `${at}${n}/`);
        else out.push({ path: `${at}${n}`, bytes: [...new Uint8Array(await (await (h as FileSystemFileHandle).getFile()).arrayBuffer())] });
    };
    await walk(await (await navigator.storage.getDirectory()).getDirectoryHandle(folder, { create: true }), '');
    return out;
  }, name);
  return to.evaluate(
    async ({ folder, files }) => {
      let copied = 0;
      const root = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder, { create: true });
      for (const f of files) {
        const parts = f.path.split('/');
        let dir = root;
        for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p, { create: true });
        const exists = await dir.getFileHandle(parts[parts.length - 1]).then(
          () => true,
          () => false,
        );
        if (exists) continue;
        const w = await (await dir.getFileHandle(parts[parts.length - 1], { create: true })).createWritable();
        await w.write(new Uint8Array(f.bytes));
        await w.close();
        copied++;
      }
      return copied;
    },
    { folder: name, files },
  );
}
