// The one place the share dialog reaches the one-file HTML page, built in ./html-page.ts as
// `buildHtmlPage(jsonl, { title, leafId?, passphrase? }): Promise<Blob>`. Found with
// vite's import.meta.glob, so this file works whether or not html-page.ts is in the build yet.
import { ApiFailure } from '../protocol.ts';

/** What the HTML page builder takes. */
export interface HtmlPageOptions {
  title: string;
  leafId?: string;
  passphrase?: string;
}

type HtmlPageModule = { buildHtmlPage(jsonl: Uint8Array, options: HtmlPageOptions): Promise<Blob> };

const pages = import.meta.glob<HtmlPageModule>('./html-page.ts');

/** Whether this build has the HTML page builder. */
export function hasHtmlPage(): boolean {
  return './html-page.ts' in pages;
}

/** A one-file HTML page of a (cleaned) session. */
export async function htmlPage(jsonl: Uint8Array, options: HtmlPageOptions): Promise<Blob> {
  const load = pages['./html-page.ts'];
  if (!load) throw new ApiFailure('unsupported', 'The one-file HTML page is not in this build yet.');
  return (await load()).buildHtmlPage(jsonl, options);
}
