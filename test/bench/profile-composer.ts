/**
 * A diagnostic, not a bench: the composer bench's stream (composer-stream.ts) with a CPU profile of
 * the main thread and its long animation frames, to see what the frames spend their time on while
 * a reply streams into an open session.
 *
 *   npx vite build [--minify false --outDir dir] && THROTTLE=4 npx tsx test/bench/profile-composer.ts 30
 *   PROFILE_PORT=4327; PROFILE_OUT=dir: serve another build; TOKENS=n (1500); FRAMES=n: long frames printed (8);
 *   END=1: record the reply's end (its turn written and read back) instead of the stream;
 *   EXTRA_CSS=rules: CSS added before the stream; TRACE=1: a trace (trace-tasks.ts) instead of the CPU profile: every main-thread task of
 *   LONG_MS (50) or more (BY_THREAD=rate: by thread time × rate, for a loaded machine), then the frames' thread times and the stream's tasks by kind, with its events' self times, its layouts, style recalcs, calls and GCs, and its JS; TRACE_OUT=file: the raw trace written there;
 *   TRACE_CATEGORIES=a,b: other trace categories (e.g. devtools.timeline,v8 alone: less of the tracing's own cost).
 */
import { writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { startReplayServer } from '../host/replay-server.ts';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { addBenchModel, PAGE_SCRIPT, releaseOnClock, replyTokens } from './composer-stream.ts';
import { type Profile, printProfile } from './cpu-profile.ts';
import { printFrames, printLongTasks, printTaskKinds, TRACE_CATEGORIES } from './trace-tasks.ts';
import { importReaderSession, servePreview } from './reader-page.ts';

const PORT = Number(process.env.PROFILE_PORT ?? 4327);
const thousands = Number(process.argv[2] ?? 30);
const TOKENS = Number(process.env.TOKENS ?? 1500);
const TRACE = Boolean(process.env.TRACE);
/** END=1: what the reply's end costs (the turn written and read back, the page at rest) instead of the stream. */
const END = Boolean(process.env.END);

const stop = await servePreview(PORT, { outDir: process.env.PROFILE_OUT });
const server = await startReplayServer();
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const tokens = replyTokens(TOKENS);
  const context = await browser.newContext({ viewport: { width: 412, height: 915 }, bypassCSP: Boolean(process.env.EXTRA_CSS) });
  const page = await context.newPage();
  await page.addInitScript(PAGE_SCRIPT);
  const id = await importReaderSession(page, PORT, thousands * 1000);
  await addBenchModel(page, server.baseUrl('anthropic'));
  await page.goto(`http://localhost:${PORT}/#/s/${encodeURIComponent(id)}`);
  const composer = page.getByRole('region', { name: 'Continue this session' });
  await composer.getByRole('textbox', { name: 'Message' }).fill('Walk me through the change, step by step.');
  await page.waitForSelector('.vl-row .rd-row', { timeout: 120_000 });
  // EXTRA_CSS=rules: CSS added to the page before the stream (to try a change without a build).
  if (process.env.EXTRA_CSS) await page.addStyleTag({ content: process.env.EXTRA_CSS });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.THROTTLE ?? 4) });
  server.script({ kind: 'slow', reply: { text: tokens, usage: { input: 90_000, output: TOKENS } }, after: 3 });
  const request = server.received.length;
  await page.evaluate(() => {
    const w = window as unknown as { __loaf: unknown[] };
    w.__loaf = [];
    new PerformanceObserver((l) => w.__loaf.push(...l.getEntries().map((e) => e.toJSON()))).observe({ type: 'long-animation-frame' });
    (window as unknown as { __stream: { start(): void } }).__stream.start();
  });
  const record = async () => {
    if (TRACE) await browser.startTracing(page, { categories: process.env.TRACE_CATEGORIES?.split(',') ?? TRACE_CATEGORIES });
    else {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
    }
  };
  const report = async () => {
    if (TRACE) {
      const buf = await browser.stopTracing();
      if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, buf);
      const events = JSON.parse(buf.toString('utf8')).traceEvents;
      printLongTasks(events, Number(process.env.LONG_MS ?? 50), Number(process.env.BY_THREAD ?? 0));
      printFrames(events);
      // The stream's tasks by kind: from the reply box's first paint to its last.
      const paints = events.filter((e: { name: string; args?: any }) => e.name === 'Paint' && String(e.args?.data?.nodeName).includes('composer-reply'));
      if (paints.length) printTaskKinds(events, paints[0].ts, paints[paints.length - 1].ts);
    } else printProfile(((await cdp.send('Profiler.stop')) as { profile: Profile }).profile);
  };
  if (!END) await record();
  await composer.getByRole('button', { name: 'Send' }).click();
  await server.until((r) => (r[request]?.sent ?? 0) >= 3);
  await releaseOnClock(tokens.length, () => server.step());
  await page.waitForFunction(
    (n) => {
      const frames = (window as unknown as { __stream: { frames: Array<[number, number]> } }).__stream.frames;
      return frames.length > 0 && frames[frames.length - 1][1] >= n - 1;
    },
    tokens.length,
    { timeout: 120_000 },
  );
  const streamed = await page.evaluate(() => (window as unknown as { __stream: { longTasks: unknown[] } }).__stream.longTasks.length);
  if (END) {
    // The rest of the stream, the turn written and read back, the page at rest.
    await page.evaluate(() => void ((window as unknown as { __loaf: unknown[] }).__loaf.length = 0));
    await record();
    for (let i = 0; i < 3; i++) server.step();
    await composer.locator('.composer-reply').waitFor({ state: 'detached', timeout: 180_000 });
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 10_000 })));
  }
  await report();
  const { longTasks, loaf } = await page.evaluate(
    (from) => {
      const w = window as unknown as { __stream: { longTasks: Array<[number, number]> }; __loaf: Array<Record<string, any>> };
      return { longTasks: w.__stream.longTasks.slice(from).map((t) => t[1]), loaf: w.__loaf };
    },
    END ? streamed : 0,
  );
  console.log(`long tasks: ${longTasks.length}, longest ${Math.max(0, ...longTasks).toFixed(0)} ms`);
  for (const f of loaf.sort((a, b) => b.duration - a.duration).slice(0, Number(process.env.FRAMES ?? 8))) {
    const rendering = f.styleAndLayoutStart ? f.startTime + f.duration - f.styleAndLayoutStart : 0;
    console.log(`frame ${f.duration.toFixed(0)} ms, blocking ${f.blockingDuration.toFixed(0)}, rendering ${rendering.toFixed(0)}`);
    for (const s of f.scripts)
      console.log(
        `   ${s.invokerType} ${s.invoker} ${s.sourceFunctionName}@${String(s.sourceURL).split('/').pop()}:${s.sourceCharPosition}: ${s.duration.toFixed(0)} ms, forced style+layout ${s.forcedStyleAndLayoutDuration.toFixed(0)}`,
      );
  }
  for (let i = 0; i < 3; i++) server.step();
} finally {
  await browser.close();
  await server.close();
  stop();
}
