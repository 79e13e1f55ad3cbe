// Builds one-file share pages in Node (the share page's own build, then buildHtmlPage, as the
// worker does) and watches a page opened from a file: every request, dialog, console message of
// the page and its worker, page errors and CSP violation events.
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { buildHtmlPage, type HtmlPageOptions } from '../../src/worker/share/html-page.ts';
import type { SharePageAssets } from '../../src/worker/share/page-template.ts';
import { buildSharePageAssets } from '../../vite.share-page.ts';
import { root } from './app-helpers.ts';

/** Where test pages are written (git-ignored). */
export const PAGES = resolve(root, 'reports/share-pages');
mkdirSync(PAGES, { recursive: true });

let assets: Promise<SharePageAssets> | null = null;

/** The share page's assets, built once per test process. */
export function sharePageAssets(): Promise<SharePageAssets> {
  assets ??= buildSharePageAssets();
  return assets;
}

/** Writes the one-file page of session bytes to reports/share-pages/<name>.html and returns its file:// URL. */
export async function writeSharePage(name: string, bytes: Uint8Array, options: HtmlPageOptions): Promise<{ url: string; path: string; size: number }> {
  const blob = await buildHtmlPage(bytes, options, await sharePageAssets());
  const path = resolve(PAGES, `${name}.html`);
  writeFileSync(path, new Uint8Array(await blob.arrayBuffer()));
  return { url: `file://${path}`, path, size: blob.size };
}

/** Records what a page opened from `pageUrl` does: requests other than its own file, dialogs, errors, CSP violations. Call before goto. */
export async function watchFilePage(page: Page, pageUrl: string) {
  const seen = { requests: [] as string[], foreign: [] as string[], dialogs: [] as string[], errors: [] as string[] };
  const own = pageUrl.replace(/#.*$/, '');
  page.on('request', (r) => {
    const url = r.url();
    seen.requests.push(url);
    // The page's own file and the blob: URL of its worker (made in the page from its own bytes) are not requests to anywhere.
    if (url.replace(/#.*$/, '') !== own && !/^blob:null\//.test(url)) seen.foreign.push(url);
  });
  page.on('dialog', (d) => {
    seen.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') seen.errors.push(m.text());
  });
  page.on('pageerror', (e) => seen.errors.push(e.message));
  page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && seen.errors.push(`worker: ${m.text()}`)));
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return { ...seen, cspViolations: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp) };
}
