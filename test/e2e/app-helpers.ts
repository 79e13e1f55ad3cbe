import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';

/** The repository root (specs run with test/e2e as their folder). */
export const root = resolve(import.meta.dirname, '../..');

/** A committed fixture's bytes. */
export function fixture(path: string): Buffer {
  return readFileSync(resolve(root, 'fixtures', path));
}

/** The sample session: its id and the title the app shows for it. */
export const SAMPLE = { path: 'samples/welcome.jsonl', id: '0193a5c2-7e10-7c4e-9f1a-5a7f0e2b9c11', title: 'Fix the tide table parser' };

/** A tiny valid v3 session with its own id, title and first message. */
export function makeSession(id: string, title: string, cwd = '/home/test/project'): string {
  const t = '2026-11-29T10:00:00.000Z';
  return (
    [
      { type: 'session', version: 3, id, timestamp: t, cwd, title },
      {
        type: 'message',
        id: `${id.slice(0, 6)}01`,
        parentId: null,
        timestamp: t,
        message: { role: 'user', content: [{ type: 'text', text: `Question about ${title}` }], timestamp: 1 },
      },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n') + '\n'
  );
}

/** Opens the app on an empty library and waits until it has read it. */
export async function openEmptyLibrary(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Your library is empty' })).toBeVisible();
}

/** Waits until the service worker controls the page (the first visit is claimed). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
}

/** Drops files on the window the way a browser does: a DataTransfer built in the page. */
export async function dropFiles(page: Page, files: Array<{ name: string; text: string }>): Promise<void> {
  await page.evaluate((files) => {
    const data = new DataTransfer();
    for (const f of files) data.items.add(new File([f.text], f.name, { type: '' }));
    const target = document.querySelector('main') ?? document.body;
    target.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, files);
}

/** How long an import may take on a busy 2-core machine before its report must be there. */
export const IMPORTED = { timeout: 30_000 };

/** The import report's one-line summary (e.g. "Added: 2"). */
export function importSummary(page: Page) {
  return page.getByRole('region', { name: 'Import' }).locator('.import-summary');
}

/** A session card in the library, by its title. */
export function card(page: Page, title: string) {
  return page.locator('.session-card').filter({ has: page.getByRole('link', { name: title, exact: true }) });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jsonl': 'application/x-ndjson',
  '.map': 'application/json',
};

/**
 * Serves the built app (dist/) from a server the test controls, so a test can "deploy" a new
 * service worker: Playwright's routing does not see the browser's service-worker update check.
 */
export async function serveBuild(): Promise<{ url: string; deploy(marker: string): void; close(): Promise<void> }> {
  const dist = resolve(root, 'dist');
  let marker = '';
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = join(dist, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dist) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    let body: Buffer = readFileSync(file);
    if (path === '/sw.js' && marker) body = Buffer.concat([body, Buffer.from(`\n// ${marker}\n`)]);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' }).end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deploy: (next) => {
      marker = next;
    },
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** Where specs save screenshots for review (created on first use). */
export const shots = resolve(root, 'reports/screenshots');
mkdirSync(shots, { recursive: true });

/** Imports a committed fixture by dropping it on the app's library (as a user would) and returns its session id. */
export async function importFixture(page: Page, path: string): Promise<string> {
  const text = fixture(path).toString('utf8');
  const id = JSON.parse(text.slice(0, text.indexOf('\n'))).id as string;
  await openEmptyLibrary(page);
  await dropFiles(page, [{ name: path.split('/').pop()!, text }]);
  await expect(page.locator(`a[href="#/s/${encodeURIComponent(id)}"]`).first()).toBeAttached({ timeout: 20_000 });
  return id;
}

/**
 * Records what hostile content could do to a page: dialogs, requests to other origins, console
 * errors, page errors and CSP violation events. Call before the first navigation.
 */
export async function watchForHostileEffects(page: Page, baseURL: string) {
  const seen = { dialogs: [] as string[], foreign: [] as string[], errors: [] as string[] };
  page.on('dialog', (d) => {
    seen.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(baseURL) && !url.startsWith('blob:') && !url.startsWith('data:')) seen.foreign.push(url);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') seen.errors.push(m.text());
  });
  page.on('pageerror', (e) => seen.errors.push(e.message));
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return {
    ...seen,
    /** CSP violations reported in the page so far. */
    cspViolations: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp),
  };
}
