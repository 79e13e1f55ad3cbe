/**
 * A diagnostic, not a bench: whether importing small sessions slows as the library grows. In
 * Chromium, through the real worker and OPFS: one call of COUNT small generated sessions,
 * timed a file for each window of WINDOW files (the first files, into a small library, beside the
 * last, into a large one); then CALLS calls of BATCH files each on top (a drop at a time), with a
 * CPU profile of the worker during them when PROFILE=1 (busiest functions, self and inclusive).
 *
 *   PROFILE_PORT=4325 npx tsx test/bench/import-growth.ts [count=2000] [window=200] [batch=20] [calls=5]
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
import { generateSessionText } from '../gen/session.ts';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { type Profile, summarizeProfile, workerChannel } from './worker-profile.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const [count = 2000, window = 200, batch = 20, calls = 5] = process.argv.slice(2).map(Number);

async function main() {
  const server = await createServer({
    root,
    configFile: resolve(root, 'vite.config.ts'),
    logLevel: 'warn',
    server: { port: Number(process.env.PROFILE_PORT ?? 4325), strictPort: true, hmr: false, watch: null },
  });
  await server.listen();
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage();
    if (process.env.DEBUG_LOG) page.on('console', (m) => m.text().includes('RHODBG') && console.log(`${new Date().toISOString().slice(11, 19)} ${m.text()}`));
    await page.goto(new URL('__growth__', server.resolvedUrls?.local[0]).href);
    const cdp = await page.context().newCDPSession(page);
    const attached = new Promise<string>((res) =>
      cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { url: string } }) => {
        if (e.targetInfo.url.includes('/src/worker/main.ts?root=growth')) res(e.sessionId);
      }),
    );
    await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    const texts = Array.from({ length: count + batch * calls }, (_, i) =>
      generateSessionText({
        seed: 5000 + i,
        targetBytes: 3_000 + (i % 7) * 1_500,
        flavor: i % 3 === 0 ? 'omp' : 'pi',
        imageRate: 0,
        branchRate: 0.1,
        startMs: Date.UTC(2026, 0, 1) + i * 3_600_000,
      }),
    );
    const mod = "import('/test/bench/import-growth-page.ts')";
    await page.evaluate((t) => {
      (globalThis as { __growthTexts?: string[] }).__growthTexts = t;
    }, texts);
    await page.evaluate(`${mod}.then((m) => m.start(globalThis.__growthTexts))`);
    const send = workerChannel(cdp, await attached);
    if (process.env.PROFILE === 'one') {
      await send('Profiler.enable');
      await send('Profiler.setSamplingInterval', { interval: 500 });
      await send('Profiler.start');
    }
    const one = (await page.evaluate(`${mod}.then((m) => m.oneCall(${count}, ${window}))`)) as { ms: number; windows: number[] };
    if (process.env.PROFILE === 'one') console.log(summarizeProfile('one call', ((await send('Profiler.stop')) as { profile: Profile }).profile, 25, 50));
    console.log(`one call of ${count}: ${(one.ms / 1000).toFixed(1)} s`);
    console.log(`ms a file, each ${window} files: ${one.windows.map((x) => x.toFixed(1)).join(' ')}`);
    if (process.env.PROFILE === '1') {
      await send('Profiler.enable');
      await send('Profiler.setSamplingInterval', { interval: 200 });
      await send('Profiler.start');
    }
    const each = (await page.evaluate(`${mod}.then((m) => m.calls(${calls}, ${batch}))`)) as number[];
    console.log(`calls of ${batch} into ${count}…: ${each.map((x) => x.toFixed(1)).join(' ')} ms a file`);
    if (process.env.PROFILE === '1') console.log(summarizeProfile('import', ((await send('Profiler.stop')) as { profile: Profile }).profile, 20, 40));
    console.log(`index.json ${Math.round(((await page.evaluate(`${mod}.then((m) => m.finish())`)) as number) / 1024)} KB`);
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
