/**
 * The Usage screen: a generated library of 2,000 sessions spread over the last year
 * (pi and omp, several models and projects, some branches), imported through the app's file
 * picker into OPFS; then, in Chromium at 1× and 4× CPU throttling (`Emulation.setCPUThrottlingRate`):
 * the time from choosing Usage to the screen drawn (route change → `main[data-usage-ready]` and the
 * next frame), cold (first open after a reload, with the chunk) and warm; a change of scope (all
 * branches → active); and the app opened straight on `#/usage`, beside the same on the library.
 * In Node: the index's size for 2,000 sessions with and without the usage digests, and the cost
 * of collecting the digest inside the storage scan.
 *
 * `npm run bench -- usage [--sizes 2000]` (size: sessions). Serves the build on port 4206
 * (USAGE_BENCH_PORT overrides).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CDPSession, chromium } from '@playwright/test';
import { createUsageCollector, parse } from '../../src/core/index.ts';
import { encodeIndex } from '../../src/storage/index-file.ts';
import { digestSession } from '../../src/core/read/digest.ts';
import type { SessionSummary } from '../../src/storage/types.ts';
import { generateSessionText } from '../gen/session.ts';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { atMost, type BenchContext, type BenchSuite, median } from './harness.ts';
import { servePreview } from './reader-page.ts';
import { openMs, routeMs } from './usage-routes.ts';

const PORT = Number(process.env.USAGE_BENCH_PORT ?? 4206);
const DAY = 86_400_000;
const PROJECTS = ['/home/dev/tide', '/home/dev/pi-mono', '/work/api', '/work/web', '/srv/infra', '/home/dev/notes', '/work/mobile', '/tmp/scratch'];

/** 2,000 small sessions (a few KB each) spread over the last year, as files in a temp folder. */
export function generateLibrary(count: number, dir: string): { paths: string[]; texts: string[] } {
  const paths: string[] = [];
  const texts: string[] = [];
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const text = generateSessionText({
      seed: 1000 + i,
      targetBytes: 3_000 + (i % 7) * 1_500,
      flavor: i % 3 === 0 ? 'omp' : 'pi',
      imageRate: 0,
      branchRate: 0.1,
      startMs: now - ((i * 7919) % 365) * DAY - (i % 24) * 3_600_000,
    });
    // Several projects: the generator writes one cwd.
    const fixed = text.replace('"cwd":"/home/dev/project"', `"cwd":"${PROJECTS[i % PROJECTS.length]}"`);
    const path = join(dir, `s${i}.jsonl`);
    writeFileSync(path, fixed);
    paths.push(path);
    texts.push(fixed);
  }
  return { paths, texts };
}

async function* once(b: Uint8Array) {
  yield b;
}

/** Index bytes with and without the usage digests, and the digest's share of the scan time. */
async function nodeFigures(ctx: BenchContext, texts: string[]): Promise<void> {
  const enc = new TextEncoder();
  const summaries: SessionSummary[] = [];
  for (const [i, t] of texts.entries()) {
    const { digest } = await digestSession(once(enc.encode(t)));
    summaries.push({
      id: digest.header?.id ?? `s${i}`,
      path: `sessions/2026-01-01T00-00-00-000Z_${digest.header?.id}.jsonl`,
      title: digest.title,
      firstMessage: digest.firstMessage,
      cwd: digest.cwd,
      created: digest.created,
      modified: Date.now(),
      date: digest.date,
      size: t.length,
      entryCount: digest.entryCount,
      branchCount: digest.branchCount,
      model: digest.model,
      totals: digest.totals,
      usage: digest.usage,
      problems: digest.problems,
    });
  }
  const withUsage = encodeIndex(summaries).length;
  const without = encodeIndex(summaries.map(({ usage: _, ...s }) => s as SessionSummary)).length;
  const buckets = summaries.reduce((n, s) => n + s.usage.branch.length + s.usage.other.length, 0);
  ctx.row({ name: `usage: index.json for ${texts.length} sessions, with usage digests`, value: withUsage / 1024, unit: 'KiB', baseline: without / 1024 });
  ctx.row({
    name: 'usage: index bytes a session (with / without digests)',
    value: withUsage / texts.length,
    unit: 'B',
    baseline: without / texts.length,
    note: `${(withUsage / without).toFixed(2)}× the index without them; ${(buckets / texts.length).toFixed(1)} buckets a session on average`,
  });

  // The digest's cost inside the scan: collecting alone over the same entries, vs the whole scan.
  const big = enc.encode(generateSessionText({ seed: 7, targetBytes: 10 * 1048576, imageRate: 0 }));
  const entries = parse(big).entries;
  const scanMs: number[] = [];
  const collectMs: number[] = [];
  for (let r = 0; r < 5; r++) {
    let t0 = performance.now();
    await digestSession(once(big));
    scanMs.push(performance.now() - t0);
    t0 = performance.now();
    const c = createUsageCollector();
    for (const [i, e] of entries.entries()) c.add(e, i);
    c.finish(() => true);
    collectMs.push(performance.now() - t0);
  }
  ctx.row({
    name: 'usage: digest collection within the storage scan of a 10 MB session',
    value: median(collectMs),
    unit: 'ms',
    baseline: median(scanMs),
    note: `baseline = the whole scan, which includes the collection (${((100 * median(collectMs)) / median(scanMs)).toFixed(1)} % of it)`,
  });
}

async function browserFigures(ctx: BenchContext, paths: string[], count: number): Promise<void> {
  // USAGE_BENCH_OUT: serve another build (e.g. main's dist) with this bench, for side-by-side runs.
  const stop = await servePreview(PORT, { log: ctx.log, outDir: process.env.USAGE_BENCH_OUT });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`http://localhost:${PORT}/`);
    ctx.log(`importing ${count} sessions through the file picker…`);
    const t0 = Date.now();
    const chooser = page.waitForEvent('filechooser', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Import files' }).first().click();
    await (await chooser).setFiles(paths);
    await page.getByText(`Added: ${count}`).waitFor({ timeout: 1_200_000 });
    ctx.log(`imported in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    // Shown: once drawn, the screen may stay mounted (hidden) under the library.
    const ready = `main[data-usage-ready="${count}"]:not([hidden] *)`;
    const whole = `main[data-usage-whole="${count}"]:not([hidden] *)`;
    const library = 'main.library .session-card';
    const cdp: CDPSession = await page.context().newCDPSession(page);
    for (const rate of [1, 4]) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      const cold: number[] = [];
      const coldWhole: number[] = [];
      const idle: number[] = [];
      let prepared = 0;
      let drawnAhead = 0;
      const warm: number[] = [];
      const lib: number[] = [];
      const scope: number[] = [];
      for (let r = 0; r < 3; r++) {
        // Reload on the library (the last round ended on Usage).
        await page.evaluate(() => history.replaceState(null, '', '/#/'));
        await page.reload();
        await page.waitForSelector(library, { timeout: 120_000 });
        const first = await openMs(page, ready, whole);
        cold.push(first.first);
        coldWhole.push(first.whole);
        // Again after a reload, the user taking a moment (3 s) before choosing Usage: the app's
        // idle work after boot has had its chance (the build marks a prepared report on <html>).
        await page.evaluate(() => history.replaceState(null, '', '/#/'));
        await page.reload();
        await page.waitForSelector(library, { timeout: 120_000 });
        await page.waitForTimeout(3_000);
        if (await page.evaluate(() => document.documentElement.dataset.usagePrepared !== undefined)) prepared++;
        // The screen drawn ahead (hidden) at idle, so the open only shows it (usage-host.tsx prerenderUsage).
        if (await page.evaluate(() => document.querySelector('main.usage') !== null)) drawnAhead++;
        idle.push(await routeMs(page, '#/usage', ready));
        for (let k = 0; k < 3; k++) {
          lib.push(await routeMs(page, '#/', library));
          warm.push(await routeMs(page, '#/usage', ready));
          scope.push(
            await page.evaluate(async () => {
              const radio = [...document.querySelectorAll<HTMLInputElement>('input[name="usage-scope"]')].find((i) => !i.checked)!;
              const t = performance.now();
              radio.click();
              await new Promise((res) => requestAnimationFrame(res));
              await new Promise((res) => requestAnimationFrame(res));
              return performance.now() - t;
            }),
          );
        }
      }
      const target = atMost(200, ' ms');
      const w = median(warm);
      const c = median(cold);
      ctx.row({
        name: `usage: ${count} sessions, open Usage (warm), CPU ${rate}×`,
        value: w,
        unit: 'ms',
        baseline: median(lib),
        target: target.target,
        ok: target.check(w),
        note: 'baseline = back to the library (kept mounted under Usage once shown)',
      });
      ctx.row({
        name: `usage: ${count} sessions, open Usage first after a reload (with its chunk), CPU ${rate}×`,
        value: c,
        unit: 'ms',
        target: target.target,
        ok: target.check(c),
        note: 'the first screenful (controls and totals) drawn; the sections under it follow in the task after that frame',
      });
      ctx.row({
        name: `usage: ${count} sessions, open Usage first after a reload, the whole screen drawn (heatmap, breakdowns), CPU ${rate}×`,
        value: median(coldWhole),
        unit: 'ms',
      });
      ctx.row({
        name: `usage: ${count} sessions, open Usage first after a reload, 3 s after the cards (idle work done), CPU ${rate}×`,
        value: median(idle),
        unit: 'ms',
        target: target.target,
        ok: target.check(median(idle)),
        note: `report prepared at idle before the open in ${prepared} of ${idle.length} rounds, the screen drawn ahead in ${drawnAhead}`,
      });
      ctx.row({ name: `usage: ${count} sessions, switch scope (all ↔ active branch), CPU ${rate}×`, value: median(scope), unit: 'ms' });
      ctx.row({ name: `library: ${count} sessions, back to the library from Usage (drawn), CPU ${rate}×`, value: median(lib), unit: 'ms' });
    }
    // Opening the app straight on Usage (a bookmark): page load → drawn, beside the same for the library.
    for (const rate of [1, 4]) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      const direct: number[] = [];
      const directLibrary: number[] = [];
      for (let r = 0; r < 3; r++) {
        for (const [hash, selector, list] of [
          ['#/usage', ready, direct],
          ['#/', library, directLibrary],
        ] as const) {
          await page.goto('about:blank');
          await page.goto(`http://localhost:${PORT}/${hash}`);
          await page.waitForSelector(selector, { timeout: 300_000 });
          list.push(await page.evaluate(() => new Promise<number>((res) => requestAnimationFrame(() => res(performance.now())))));
        }
      }
      ctx.row({
        name: `usage: ${count} sessions, open the app on #/usage (page load → drawn), CPU ${rate}×`,
        value: median(direct),
        unit: 'ms',
        baseline: median(directLibrary),
        note: 'baseline = the app opened on the library; both include booting the app and the worker reading the index',
      });
      ctx.row({
        name: `library: ${count} sessions, open the app on the library (page load → cards drawn), CPU ${rate}×`,
        value: median(directLibrary),
        unit: 'ms',
        note: 'a library of more than 150 sessions draws only the cards near the screen (LibraryList.tsx)',
      });
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  } finally {
    await browser.close();
    stop();
  }
}

export default {
  name: 'usage',
  description: 'Usage screen for a 2,000-session library in Chromium (1× and 4× CPU), index size with usage digests',
  defaultSizes: [2000],
  async run(ctx) {
    const count = ctx.sizes?.[0] ?? 2000;
    const dir = join(tmpdir(), `rho-usage-bench-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      ctx.log(`generating ${count} sessions…`);
      const { paths, texts } = generateLibrary(count, dir);
      await nodeFigures(ctx, texts);
      await browserFigures(ctx, paths, count);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
} satisfies BenchSuite;
