/**
 * Chromium driven over a bare DevTools pipe (`--remote-debugging-pipe`: JSON messages ending in a NUL
 * byte on file descriptors 3 and 4), with no domain turned on but Page, Runtime and Emulation.
 *
 * Why not Playwright for a page-opening measurement: Playwright turns on the Network domain for every
 * page, and DevTools then keeps a copy of the document's body and decodes all of it in one main-thread
 * task when it has loaded (TextResourceDecoder::Decode of the whole file inside
 * DocumentLoader::BodyLoadingFinished: ~170 ms of CPU for a 12 MB page, 4× that throttled). No reader
 * of the page pays that; a bare pipe measures what they do.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CHROMIUM_ARGS, chromiumPath } from '../tools/browser.ts';

type Params = Record<string, unknown>;

/** A browser on a DevTools pipe: `send` a command (to a page's session when given one). */
export interface BareBrowser {
  send<T = Record<string, unknown>>(method: string, params?: Params, sessionId?: string): Promise<T>;
  close(): Promise<void>;
}

/** Launches headless Chromium (the measuring one: tools/browser.ts) in a throw-away profile. */
export function launchBare(): BareBrowser {
  const profile = mkdtempSync(join(tmpdir(), 'rho-bench-cdp-'));
  const path = chromiumPath('measure');
  if (!path) throw new Error('No Chromium to measure with (set CHROMIUM_PATH).');
  const proc: ChildProcess = spawn(
    path,
    [...CHROMIUM_ARGS, '--headless', '--hide-scrollbars', '--remote-debugging-pipe', `--user-data-dir=${profile}`, 'about:blank'],
    {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
    },
  );
  const out = proc.stdio[3] as Writable;
  const input = proc.stdio[4] as Readable;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let next = 0;
  let buffered = '';
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\0'); end >= 0; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end)) as { id?: number; result?: unknown; error?: { message: string } };
      buffered = buffered.slice(end + 1);
      const w = message.id === undefined ? undefined : waiting.get(message.id);
      if (!w) continue;
      waiting.delete(message.id as number);
      if (message.error) w.reject(new Error(message.error.message));
      else w.resolve(message.result);
    }
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  void exited.then(() => {
    for (const w of waiting.values()) w.reject(new Error('Chromium exited.'));
  });
  return {
    send: <T>(method: string, params: Params = {}, sessionId?: string) =>
      new Promise<T>((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        out.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
      }),
    async close() {
      proc.kill();
      await exited;
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A fresh page in a browser context of its own, attached (flat session); `dispose` closes the context. */
export async function newBarePage(browser: BareBrowser, viewport: { width: number; height: number }) {
  const { browserContextId } = await browser.send<{ browserContextId: string }>('Target.createBrowserContext', { disposeOnDetach: true });
  const { targetId } = await browser.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', browserContextId });
  const { sessionId } = await browser.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  const send = <T = Record<string, unknown>>(method: string, params?: Params) => browser.send<T>(method, params, sessionId);
  await send('Page.enable');
  await send('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor: 1, mobile: false });
  return { send, dispose: () => browser.send('Target.disposeBrowserContext', { browserContextId }).then(() => undefined) };
}
