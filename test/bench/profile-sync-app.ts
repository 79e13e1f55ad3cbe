/**
 * A diagnostic, not a bench: a Chromium trace of the page's main thread while the app's first sync
 * uploads a library (and while a second device's first sync brings it in), at 4× CPU, against s3rver
 * on loopback; prints every top-level task of 50 ms or more with what it consists of (TRACE=1,
 * trace-tasks.ts), or the long tasks and long animation frames the bench sees, with a CPU profile (PROFILE=1).
 *
 *   npx tsx test/bench/profile-sync-app.ts [sessions=100] [MB=sessions/50]
 *   The second device shows its library while the sessions arrive (as the sync-app bench does).
 *   PROFILE_PORT overrides the preview's port (4306); PROFILE_OUT=dir writes the raw traces there; PROFILE_DIST=dir: where the build goes.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { invite, setUpS3 } from '../e2e/sync-helpers.ts';
import { S3_KEY, S3_SECRET, startS3 } from '../sync/servers.ts';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { servePreview } from './reader-page.ts';
import { importLibrary, tasksSeen, untilLibraryReceived, watchTasks } from './sync-app-page.ts';
import { printLongTasks, TRACE_CATEGORIES, type TraceEvent } from './trace-tasks.ts';
import { type Profile, summarizeProfile } from './worker-profile.ts';

const PORT = Number(process.env.PROFILE_PORT ?? 4306);
const sessions = Number(process.argv[2] ?? 100);
const mb = Number(process.argv[3] ?? sessions / 50);

async function traced(browser: Browser, page: Page, label: string, act: () => Promise<void>): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await act();
  const buf = await browser.stopTracing();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  if (process.env.PROFILE_OUT) writeFileSync(resolve(process.env.PROFILE_OUT, `${label}.json`), buf);
  const { traceEvents } = JSON.parse(buf.toString()) as { traceEvents: TraceEvent[] };
  console.log(`\n##### ${label}: the page's top-level tasks of 50 ms or more at 4× CPU (wall time)`);
  printLongTasks(traceEvents, 50);
  console.log(`\n##### ${label}: the same by thread time × 4 (a shared machine's waits for a core left out)`);
  printLongTasks(traceEvents, 50, 4);
}

const lastSync = (p: Page) =>
  p.waitForFunction(() => /Last sync: \d/.test(document.querySelector('[data-testid="sync-state"]')?.textContent ?? ''), null, {
    polling: 250,
    timeout: 600_000,
  });

/** What the page's long tasks and frames were since `watchTasks` (sync-app-page.ts), printed under `label`. */
async function observed(p: Page, label: string): Promise<void> {
  const lines: string[] = [];
  const got = await tasksSeen(p, (m) => lines.push(m));
  console.log(`\n##### ${label}: longest task ${Math.round(got.longest)} ms; long tasks ${got.durations.join(' ')}`);
  for (const line of lines) console.log(line);
}

async function measured(browser: Browser, page: Page, label: string, act: () => Promise<void>): Promise<void> {
  if (process.env.TRACE) return traced(browser, page, label, act);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await watchTasks(page);
  if (process.env.PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
    await cdp.send('Profiler.start');
  }
  await act();
  const profile = process.env.PROFILE ? ((await cdp.send('Profiler.stop')) as unknown as { profile: Profile }).profile : null;
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await observed(page, label);
  if (profile) console.log(summarizeProfile(label, profile, 30, 70));
  if (profile && process.env.PROFILE_OUT) writeFileSync(resolve(process.env.PROFILE_OUT, `${label}.cpuprofile`), JSON.stringify(profile));
}

const s3 = await startS3({ origins: ['*'] });
// Not minified (the profile names functions), otherwise the production build.
const outDir = process.env.PROFILE_DIST ?? '/tmp/rho-sync-profile-dist';
if (!process.env.NO_BUILD)
  spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--minify', 'false', '--outDir', outDir, '--emptyOutDir'], { stdio: 'inherit' });
const stopServer = await servePreview(PORT, { log: console.log, outDir });
const base = `http://localhost:${PORT}/`;
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const ctxA = await browser.newContext({ baseURL: base });
  if (process.env.MESSAGES)
    await ctxA.addInitScript(() => {
      const log: string[] = [];
      (window as unknown as { msgs: string[] }).msgs = log;
      const methods = new Map<number, string>();
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (this: Worker, m: { kind?: string; id?: number; method?: string }, t?: unknown) {
        if (m?.kind === 'call' && m.id !== undefined) methods.set(m.id, m.method ?? '?');
        return (post as (this: Worker, m: unknown, t?: unknown) => void).call(this, m, t);
      } as typeof post;
      const add = Worker.prototype.addEventListener;
      Worker.prototype.addEventListener = function (this: Worker, type: string, fn: EventListenerOrEventListenerObject, o?: unknown) {
        if (type === 'message')
          add.call(this, 'message', (e: Event) => {
            const d = (e as MessageEvent).data as { kind?: string; id?: number };
            log.push(`${Math.round(performance.now())} ${d?.kind} ${methods.get(d?.id ?? -1)} ${JSON.stringify(d).length}`);
          });
        return add.call(this, type, fn, o as AddEventListenerOptions);
      } as typeof add;
    });
  const a = await ctxA.newPage();
  a.setDefaultTimeout(120_000);
  await importLibrary(a, sessions, mb);
  await a.goto('/#/sync');
  await setUpS3(a, { endpoint: s3.endpoint, bucket: s3.bucket, prefix: 'p/', key: S3_KEY, secret: S3_SECRET, name: 'laptop' });
  const create = await a.getByRole('button', { name: 'Create the space' }).elementHandle();
  await measured(browser, a, 'first-sync-up', async () => {
    await create!.click();
    await lastSync(a);
  });
  if (process.env.MESSAGES) console.log((await a.evaluate(() => (window as unknown as { msgs: string[] }).msgs)).slice(-80).join('\n'));
  // The second device pairs on its sync screen; its first sync brings the library in.
  if (process.env.ONLY === 'up') throw new Error('only the first device measured (ONLY=up)');
  const { link, code } = await invite(a);
  const b = await (await browser.newContext({ baseURL: base })).newPage();
  b.setDefaultTimeout(120_000);
  await b.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await b.getByLabel('Code (shown beside the QR code)').fill(code);
  await b.getByRole('button', { name: 'Open the link' }).click();
  await b.getByLabel('This device’s name', { exact: true }).fill('phone');
  const pair = await b.getByRole('button', { name: 'Pair this device' }).elementHandle();
  await measured(browser, b, 'first-sync-down', async () => {
    await pair!.click();
    await b.waitForFunction(() => document.querySelector('[data-testid="sync-where"]') !== null, null, { polling: 250, timeout: 600_000 });
    await untilLibraryReceived(b, sessions, 600_000);
  });
} finally {
  await browser.close();
  stopServer();
  await s3.stop();
}
