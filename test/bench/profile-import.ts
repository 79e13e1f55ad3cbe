/**
 * A diagnostic, not a bench: a CPU profile (CDP Profiler, in the import worker) of importing one big
 * session and a folder of small ones, as the storage bench generates them; prints the busiest
 * functions (self and inclusive samples) of each, and the wall time beside a raw OPFS write.
 *
 *   PROFILE_PORT=4305 npx tsx test/bench/profile-import.ts [sizeMb=100] [folder=500]
 *   LATER=1: a worker that leaves the search index for later (`?index=later`). THROTTLE=4: CPU slowed.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CDPSession, chromium } from '@playwright/test';
import { createServer } from 'vite';
import { chromiumLaunchOptions } from '../tools/browser.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const PORT = Number(process.env.PROFILE_PORT ?? 4305);
const sizeMb = Number(process.argv[2] ?? 100);
const folder = Number(process.argv[3] ?? 500);

interface Profile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

/** Messages to one worker target through the page's session (non-flat: Target.sendMessageToTarget). */
function workerChannel(cdp: CDPSession, sessionId: string) {
  let next = 1;
  const waiting = new Map<number, (v: unknown) => void>();
  cdp.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message) as { id?: number; result?: unknown; error?: unknown };
    if (m.id !== undefined) waiting.get(m.id)?.(m.error ? Promise.reject(new Error(JSON.stringify(m.error))) : m.result);
  });
  return (method: string, params: Record<string, unknown> = {}) =>
    new Promise<any>((res) => {
      const id = next++;
      waiting.set(id, res);
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    });
}

function summarize(label: string, profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id: number) => {
    const n = byId.get(id)!;
    return `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()?.split('?')[0]}:${n.callFrame.lineNumber}`;
  };
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((leaf, i) => {
    const dt = profile.timeDeltas[i + 1] ?? 0;
    const n = name(leaf);
    if (n.startsWith('(idle)')) {
      idle += dt;
      return;
    }
    busy += dt;
    self.set(n, (self.get(n) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) seen.add(name(id));
    for (const f of seen) incl.set(f, (incl.get(f) ?? 0) + dt);
  });
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([n, c]) => `  ${(c / 1000).toFixed(1)} ms  ${n}`)
      .join('\n');
  const p = profile as Profile & { startTime: number; endTime: number };
  console.log(
    `\n=== ${label}: ${(busy / 1000).toFixed(0)} ms busy in the worker, ${(idle / 1000).toFixed(0)} ms idle (${profile.samples.length} samples over ${((p.endTime - p.startTime) / 1000).toFixed(0)} ms)`,
  );
  console.log(`self:\n${top(self, 25)}`);
  console.log(`inclusive:\n${top(incl, 45)}`);
}

const server = await createServer({
  root,
  configFile: resolve(root, 'vite.config.ts'),
  logLevel: 'warn',
  server: { port: PORT, strictPort: true, hmr: false, watch: null },
  optimizeDeps: { include: ['fflate', 'idb-keyval', 'zod'] },
});
await server.listen();
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const page = await browser.newPage();
  await page.goto(`http://localhost:${PORT}/__storage_bench__`);
  const cdp = await page.context().newCDPSession(page);
  if (process.env.THROTTLE) await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.THROTTLE) });
  const attached = new Promise<string>((res) =>
    cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string; url: string } }) => {
      console.log(`attached: ${e.targetInfo.type} ${e.targetInfo.url}`);
      if (e.targetInfo.url.includes('/src/worker/main.ts?root=profile')) res(e.sessionId);
    }),
  );
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  const query = process.env.LATER ? '&index=later' : '';
  await page.evaluate(`import('/test/bench/profile-import-page.ts').then((m) => m.setup(${JSON.stringify({ sizeMb, folder, query })}))`);
  const send = workerChannel(cdp, await attached);
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 200 });
  for (const which of (process.env.ONLY ? [process.env.ONLY] : ['big', 'folder']) as Array<'big' | 'folder'>) {
    const raw = (await page.evaluate(`import('/test/bench/profile-import-page.ts').then((m) => m.raw('${which}'))`)) as number;
    await send('Profiler.start');
    const ms = (await page.evaluate(`import('/test/bench/profile-import-page.ts').then((m) => m.run('${which}'))`)) as number;
    const { profile } = (await send('Profiler.stop')) as { profile: Profile };
    console.log(`\n##### ${which}: import ${ms.toFixed(0)} ms, raw write ${raw.toFixed(0)} ms (${(ms / raw).toFixed(2)}×)`);
    summarize(which, profile);
  }
} finally {
  await browser.close();
  await server.close();
}
