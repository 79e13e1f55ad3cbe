/**
 * A diagnostic, not a bench: a CPU profile (CDP Profiler, in the worker) of the first sync of a
 * linked folder of small sessions, as linked.bench.ts makes it; prints the busiest functions (self
 * and inclusive) and the wall time beside a raw copy of the same files.
 *
 *   PROFILE_PORT=4305 npx tsx test/bench/profile-linked.ts [sessions=1000]
 *   GROWN=1: into a library that already holds as many other sessions (linked first, not profiled).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { type Profile, summarizeProfile, workerChannel } from './worker-profile.ts';
import { serveSources } from './source-server.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const PORT = Number(process.env.PROFILE_PORT ?? 4305);
const sessions = Number(process.argv[2] ?? 1000);

const server = await serveSources(root, PORT);
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const page = await browser.newPage();
  await page.goto(`http://localhost:${PORT}/__linked_bench__`);
  const inPage = (fn: string, args: unknown) => page.evaluate(`import('/test/bench/linked-page.ts').then((m) => m.${fn}(${JSON.stringify(args)}))`);
  await inPage('makeFolder', { folder: 'profile-folder', sessions, bytes: 8192, prefix: '0199' });
  if (process.env.GROWN) await inPage('makeFolder', { folder: 'profile-grown', sessions, bytes: 8192, prefix: '0299' });
  const raw = (await inPage('timeRawCopy', { folder: 'profile-folder', into: 'profile-raw' })) as number;
  const cdp = await page.context().newCDPSession(page);
  const attached = new Promise<string>((res) =>
    cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { url: string } }) => {
      if (e.targetInfo.url.includes('/src/worker/main.ts?root=profile-store')) res(e.sessionId);
    }),
  );
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  await inPage('startProfiled', { store: 'profile-store', grown: process.env.GROWN ? 'profile-grown' : undefined });
  const send = workerChannel(cdp, await attached);
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 200 });
  await send('Profiler.start');
  const ms = (await inPage('syncProfiled', { folder: 'profile-folder' })) as number;
  const { profile } = (await send('Profiler.stop')) as { profile: Profile };
  console.log(`\n##### first sync of ${sessions}: ${ms.toFixed(0)} ms, raw copy ${raw.toFixed(0)} ms (${(ms / raw).toFixed(2)}×)`);
  console.log(summarizeProfile('first sync', profile, 40, 60));
} finally {
  await browser.close();
  await server.close();
}
