/**
 * A diagnostic, not a bench: a CPU profile (CDP Profiler) of the Usage screen's warm open (from
 * the library) and of a change of scope, for the bench's generated library; prints the busiest
 * functions (self and inclusive samples) of each.
 *
 *   npx vite build --minify false --outDir dist-profile && PROFILE_PORT=4323 npx tsx test/bench/profile-usage.ts 2000
 *   TRACE=1: trace events (style, layout, paint) instead of CPU samples; with REPEAT=n (and QUIET=1),
 *   n traced rounds and the median main-thread busy time of each step (OUT=/other/dist compares a build).
 *   THROTTLE=4: the CPU slowed 4× after the import. OUT=dist-profile by default. COLD=n: instead, n
 *   first opens after a reload on the library (loading the chunk and the first computation).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CDPSession, chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { servePreview } from './reader-page.ts';
import { generateLibrary } from './usage.bench.ts';
import { routeMs } from './usage-routes.ts';

const PORT = Number(process.env.PROFILE_PORT ?? 4323);
const count = Number(process.argv[2] ?? 2000);

interface Profile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

async function profiled(cdp: CDPSession, label: string, run: () => Promise<number>, page?: Page): Promise<void> {
  if (process.env.TRACE && page) return traced(page, label, run);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const ms = await run();
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id: number) => {
    const n = byId.get(id)!;
    return `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
  };
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let busy = 0;
  for (const leaf of profile.samples) {
    const n = name(leaf);
    if (n.startsWith('(idle)')) continue;
    busy++;
    self.set(n, (self.get(n) ?? 0) + 1);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) seen.add(name(id));
    for (const f of seen) incl.set(f, (incl.get(f) ?? 0) + 1);
  }
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([n, c]) => `  ${(c / 10).toFixed(1)} ms  ${n}`)
      .join('\n');
  console.log(`\n=== ${label}: ${ms.toFixed(0)} ms; ${(busy / 10).toFixed(0)} ms busy (0.1 ms samples)`);
  console.log(`self:\n${top(self, 18)}`);
  console.log(`inclusive:\n${top(incl, 30)}`);
}

/** Main-thread busy time (ms, the RunTask events) of each traced step, for REPEAT's medians. */
const busyMs: Record<string, number[]> = {};

/** TRACE=1: the main thread's trace events by name (style, layout, paint, script), summed. */
async function traced(page: Page, label: string, run: () => Promise<number>): Promise<void> {
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  const ms = await run();
  const json = JSON.parse((await browser.stopTracing()).toString('utf8'));
  const events = (Array.isArray(json) ? json : json.traceEvents) as Array<{ name: string; ph: string; dur?: number; pid: number; tid: number; args?: any }>;
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  let best = { pid: 0, tid: 0, sum: -1 };
  for (const m of mains) {
    const sum = events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'RunTask').reduce((s, e) => s + (e.dur ?? 0), 0);
    if (sum > best.sum) best = { pid: m.pid, tid: m.tid, sum };
  }
  const byName = new Map<string, number>();
  for (const e of events) if (e.pid === best.pid && e.tid === best.tid && e.ph === 'X') byName.set(e.name, (byName.get(e.name) ?? 0) + (e.dur ?? 0));
  const busy = byName.get('RunTask') ?? 0;
  (busyMs[label] ??= []).push(busy / 1000);
  if (process.env.QUIET) return;
  console.log(`\n=== ${label} (traced): ${ms.toFixed(0)} ms`);
  for (const [n, d] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 16)) console.log(`  ${(d / 1000).toFixed(1)} ms  ${n}`);
}

/** Clicks the scope not chosen; resolves after two frames with the time taken. */
function scopeSwitch(page: Page): () => Promise<number> {
  return () =>
    page.evaluate(async () => {
      const radio = [...document.querySelectorAll<HTMLInputElement>('input[name="usage-scope"]')].find((i) => !i.checked)!;
      const t = performance.now();
      radio.click();
      await new Promise((res) => requestAnimationFrame(res));
      await new Promise((res) => requestAnimationFrame(res));
      return performance.now() - t;
    });
}

async function main() {
  const dir = join(tmpdir(), `rho-usage-profile-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const stop = await servePreview(PORT, { outDir: process.env.OUT ?? 'dist-profile' });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const { paths } = generateLibrary(count, dir);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`http://localhost:${PORT}/`);
    const chooser = page.waitForEvent('filechooser', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Import files' }).first().click();
    await (await chooser).setFiles(paths);
    await page.getByText(`Added: ${count}`).waitFor({ timeout: 1_200_000 });
    const ready = `main[data-usage-ready="${count}"]:not([hidden] *)`;
    const library = 'main.library .session-card';
    await page.waitForSelector(library);
    const cdp = await page.context().newCDPSession(page);
    if (process.env.THROTTLE) await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.THROTTLE) });
    // COLD=n: n first opens after a reload on the library (the chunk and the first computation), profiled.
    for (let r = 0; r < Number(process.env.COLD ?? 0); r++) {
      await page.evaluate(() => history.replaceState(null, '', '/#/'));
      await page.reload();
      await page.waitForSelector(library, { timeout: 120_000 });
      await profiled(cdp, `cold open ${r + 1} (first after a reload)`, () => routeMs(page, '#/usage', ready), page);
    }
    if (process.env.COLD) return;
    // One open and back, so the chunk is loaded and the open measured is warm.
    await routeMs(page, '#/usage', ready);
    await routeMs(page, '#/', library);
    for (let r = Number(process.env.REPEAT ?? 1); r > 1; r--) {
      await traced(page, 'warm open', () => routeMs(page, '#/usage', ready));
      await traced(page, 'scope switch', scopeSwitch(page));
      await traced(page, 'back to the library', () => routeMs(page, '#/', library));
    }
    await profiled(cdp, 'warm open', () => routeMs(page, '#/usage', ready), page);
    const scope = scopeSwitch(page);
    await profiled(cdp, 'scope switch 1 (to active branch)', scope, page);
    await profiled(cdp, 'scope switch 2 (back to all)', scope, page);
    await profiled(cdp, 'back to the library', () => routeMs(page, '#/', library));
    if (process.env.REPEAT) {
      const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      for (const [label, xs] of Object.entries(busyMs))
        console.log(`main-thread busy, ${label}: median ${med(xs).toFixed(1)} ms of ${xs.length} (${xs.map((x) => x.toFixed(0)).join(' ')})`);
    }
  } finally {
    await browser.close();
    stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
