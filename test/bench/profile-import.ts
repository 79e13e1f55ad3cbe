/**
 * A diagnostic, not a bench: a CPU profile (CDP Profiler, in the import worker) of importing one big
 * session and a folder of small ones, as the storage bench generates them; prints the busiest
 * functions (self and inclusive samples) of each, and the wall time beside a raw OPFS write.
 *
 *   PROFILE_PORT=4305 npx tsx test/bench/profile-import.ts [sizeMb=100] [folder=500]
 *   LATER=1: a worker that leaves the search index for later (`?index=later`). THROTTLE=4: CPU slowed.
 *   DISK=1: a browser profile on disk (Playwright's default keeps OPFS in memory). ONLY=big|folder
 *   (or both in the order given: ONLY=folder,big profiles the big import in a worker that has imported before).
 *   BAD=line|chain|nesting: the big input is that full-size bad-input case instead.
 *   GEN=sessions:totalMb: the folder is the search bench's generated sessions (test/gen), e.g. GEN=300:42.
 *   LOAD=sessions:totalMb: the folder is the load bench's library instead (one shared body), e.g. LOAD=1000:500.
 *   NORAW=1: no raw write before each import (the load bench's order: the big import right after the folder's and a listing).
 *   PROFILE_OUT=dir: each raw profile written there as `<which>.cpuprofile` (for Chrome's DevTools).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { type Profile, summarizeProfile, workerChannel } from './worker-profile.ts';
import { serveSources } from './source-server.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const PORT = Number(process.env.PROFILE_PORT ?? 4305);
const sizeMb = Number(process.argv[2] ?? 100);
const folder = Number(process.argv[3] ?? 500);

const server = await serveSources(root, PORT);
const dir = process.env.DISK ? mkdtempSync(join(tmpdir(), 'rho-profile-')) : null;
const context = dir
  ? await chromium.launchPersistentContext(dir, chromiumLaunchOptions())
  : await (await chromium.launch(chromiumLaunchOptions())).newContext();
try {
  const page = await context.newPage();
  await page.goto(`http://localhost:${PORT}/__storage_bench__`);
  const cdp = await page.context().newCDPSession(page);
  if (process.env.THROTTLE) await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.THROTTLE) });
  // The other workers of the page (the app's own): OTHERS=1 profiles them and the page beside the import's.
  const others: Array<{ url: string; sessionId: string }> = [];
  const attached = new Promise<string>((res) =>
    cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string; url: string } }) => {
      console.log(`attached: ${e.targetInfo.type} ${e.targetInfo.url}`);
      if (!e.targetInfo.url.includes('/src/worker/main.ts?root=profile')) others.push({ url: e.targetInfo.url, sessionId: e.sessionId });
      if (e.targetInfo.url.includes('/src/worker/main.ts?root=profile')) res(e.sessionId);
    }),
  );
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  const query = process.env.LATER ? '&index=later' : '';
  const [genSessions, genMb] = (process.env.GEN ?? '').split(':').map(Number);
  const gen = genSessions ? { sessions: genSessions, totalMb: genMb || 42 } : undefined;
  const [loadSessions, loadMb] = (process.env.LOAD ?? '').split(':').map(Number);
  const load = loadSessions ? { sessions: loadSessions, totalMb: loadMb || 500 } : undefined;
  await page.evaluate(
    `import('/test/bench/profile-import-page.ts').then((m) => m.setup(${JSON.stringify({ sizeMb, folder, query, gen, load, bad: process.env.BAD })}))`,
  );
  const send = workerChannel(cdp, await attached);
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 200 });
  for (const which of (process.env.ONLY ? process.env.ONLY.split(',') : ['big', 'folder']) as Array<'big' | 'folder'>) {
    // NORAW=1: no raw write between the imports (as the load bench runs them: one right after the other).
    const raw = process.env.NORAW
      ? Number.NaN
      : ((await page.evaluate(`import('/test/bench/profile-import-page.ts').then((m) => m.raw('${which}'))`)) as number);
    await send('Profiler.start');
    const extra = process.env.OTHERS ? others.map((o) => ({ ...o, send: workerChannel(cdp, o.sessionId) })) : [];
    for (const o of extra) {
      await o.send('Profiler.enable');
      await o.send('Profiler.start');
    }
    if (process.env.OTHERS) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const ms = (await page.evaluate(`import('/test/bench/profile-import-page.ts').then((m) => m.run('${which}'))`)) as number;
    const { profile } = (await send('Profiler.stop')) as { profile: Profile };
    for (const o of extra)
      console.log(summarizeProfile(`${which}, beside it: ${o.url}`, ((await o.send('Profiler.stop')) as { profile: Profile }).profile, 15, 30));
    if (process.env.OTHERS) console.log(summarizeProfile(`${which}, beside it: the page`, (await cdp.send('Profiler.stop')).profile as Profile, 15, 30));
    console.log(`\n##### ${which}: import ${ms.toFixed(0)} ms, raw write ${raw.toFixed(0)} ms (${(ms / raw).toFixed(2)}×)`);
    console.log(summarizeProfile(which, profile));
    const heap = (await send('Runtime.getHeapUsage')) as { usedSize: number; totalSize: number };
    console.log(`worker heap after: ${(heap.usedSize / 1048576).toFixed(0)} MB used of ${(heap.totalSize / 1048576).toFixed(0)} MB`);
    if (process.env.PROFILE_OUT) writeFileSync(resolve(process.env.PROFILE_OUT, `${which}.cpuprofile`), JSON.stringify(profile));
  }
} finally {
  await context.close();
  await server.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
