/**
 * A diagnostic, not a bench: where a search keystroke's time goes. On the search bench's generated
 * library (kept in a profile on disk between runs), a fresh worker (caches cold, as the bench's)
 * types the bench's queries key by key with its CPU profiled key by key, then types them again
 * (warm); prints each keystroke's times and the busiest functions of the slowest and of them all.
 *
 *   PROFILE_PORT=4301 npx tsx test/bench/profile-search.ts [totalMb=30] [sessions=1000]
 *   THROTTLE=4: CPU slowed. PROFILE_ROOT=/other/checkout: serve another tree (its worker) instead.
 *   SLOWEST=n: keystrokes whose profiles are printed (default 6). NOPROFILE=1: no profiles, the keys
 *   typed back to back as the bench types them. PROFILE_DIR: the browser profile (default in /tmp).
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
import { benchOptimizeDeps } from './source-server.ts';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { type Profile, summarizeProfile, workerChannel } from './worker-profile.ts';

const TYPED = ['compaction summary', 'parseLine buffer', 'sesion stroe', 'tool:bash error', 'zzqqxx nowhere', 'the'];
const here = resolve(fileURLToPath(import.meta.url), '../../..');
const root = process.env.PROFILE_ROOT ?? here;
const PORT = Number(process.env.PROFILE_PORT ?? 4301);
const totalMb = Number(process.argv[2] ?? 30);
const sessions = Number(process.argv[3] ?? 1000);
const dir = process.env.PROFILE_DIR ?? resolve(tmpdir(), 'rho-profile-search');
mkdirSync(dir, { recursive: true });

const server = await createServer({
  root,
  configFile: resolve(root, 'vite.config.ts'),
  logLevel: 'warn',
  server: { port: PORT, strictPort: true, hmr: false, watch: null },
  optimizeDeps: benchOptimizeDeps,
});
await server.listen();
const browser = await chromium.launchPersistentContext(dir, chromiumLaunchOptions());
type Key = { ms: number; total: number; shown: number; hits: number };
try {
  const page = await browser.newPage();
  await page.goto(`http://localhost:${PORT}/__search_bench__`);
  const cdp = await browser.newCDPSession(page);
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  const inPage = <T>(fn: string, arg: unknown) =>
    page.evaluate(`import('/test/bench/profile-search-page.ts').then((m) => m.${fn}(${JSON.stringify(arg)}))`) as Promise<T>;
  const t0 = Date.now();
  const n = await inPage<number>('open', { root: `lib-${totalMb}mb-${sessions}`, totalMb, sessions });
  console.log(`library: ${n} sessions (${((Date.now() - t0) / 1000).toFixed(0)} s to open)`);
  // A fresh worker, as the bench's (after its import, it reads the index anew): caches cold.
  let latest: (id: string) => void = () => undefined;
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { url: string } }) => {
    if (e.targetInfo.url.includes('&fresh=')) latest(e.sessionId);
  });
  const fresh = new Promise<string>((res) => {
    latest = res;
  });
  const loadMs = await inPage<number>('reopen', { root: `lib-${totalMb}mb-${sessions}` });
  console.log(`a new worker read the index in ${loadMs.toFixed(0)} ms`);
  const send = workerChannel(cdp, await fresh);
  if (process.env.THROTTLE) await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.THROTTLE) });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 200 });
  const keys = TYPED.flatMap((q) => Array.from(q, (_, i) => q.slice(0, i + 1)));
  const cold: Array<{ k: string; t: Key; profile: Profile; busy: number }> = [];
  const empty: Profile = { nodes: [{ id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: 0 } }], samples: [], timeDeltas: [] };
  for (const k of keys) {
    // NOPROFILE=1: the first pass as the bench types it (the profiler's round trips between keys let the segments' readers close).
    if (process.env.NOPROFILE) {
      cold.push({ k, t: await inPage<Key>('key', k), profile: empty, busy: 0 });
      continue;
    }
    await send('Profiler.start');
    const t = await inPage<Key>('key', k);
    const { profile } = (await send('Profiler.stop')) as { profile: Profile };
    cold.push({ k, t, profile, busy: busyMs(profile) });
  }
  const warm = new Map<string, Key>();
  for (const k of keys) warm.set(k, await inPage<Key>('key', k));
  const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  const line = (label: string, xs: number[]) =>
    `${label}: p50 ${pct(xs, 0.5).toFixed(1)} ms, p95 ${pct(xs, 0.95).toFixed(1)} ms, max ${pct(xs, 1).toFixed(1)} ms`;
  console.log(
    `\n${keys.length} keystrokes (first screen)\n${line(
      process.env.NOPROFILE ? 'first pass' : 'first pass (profiled)',
      cold.map((c) => c.t.ms),
    )}\n${line(
      'again (not profiled)',
      [...warm.values()].map((t) => t.ms),
    )}`,
  );
  console.log('     first  busy   again  keystroke');
  for (const c of cold)
    console.log(
      `  ${c.t.ms.toFixed(1).padStart(7)} ${c.busy.toFixed(1).padStart(5)} ${warm.get(c.k)!.ms.toFixed(1).padStart(7)}  ${JSON.stringify(c.k).padEnd(22)} found ${c.t.total}, shown ${c.t.shown}, hits ${c.t.hits}`,
    );
  for (const c of [...cold].sort((a, b) => b.t.ms - a.t.ms).slice(0, process.env.NOPROFILE ? 0 : Number(process.env.SLOWEST ?? 6)))
    console.log(summarizeProfile(`${JSON.stringify(c.k)} ${c.t.ms.toFixed(1)} ms`, c.profile, 15, 30));
  console.log(summarizeProfile('every keystroke of the first pass', merge(cold.map((c) => c.profile)), 30, 50));
} finally {
  await browser.close();
  await server.close();
}

function busyMs(p: Profile): number {
  const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  return p.samples.reduce((ms, id, i) => ms + (idle.has(id) ? 0 : (p.timeDeltas[i + 1] ?? 0) / 1000), 0);
}

// Profiles as one (node ids moved apart; the summary reads only nodes, samples and deltas).
function merge(ps: Profile[]): Profile {
  const out: Profile = { nodes: [], samples: [], timeDeltas: [] };
  let base = 0;
  for (const p of ps) {
    const max = Math.max(...p.nodes.map((n) => n.id));
    for (const n of p.nodes) out.nodes.push({ ...n, id: n.id + base, children: n.children?.map((c) => c + base) });
    // summarizeProfile reads the delta after each sample: keep them aligned per profile.
    out.samples.push(...p.samples.map((s) => s + base));
    out.timeDeltas.push(...p.timeDeltas.slice(1), 0);
    base += max + 1;
  }
  out.timeDeltas.unshift(0);
  return out;
}
