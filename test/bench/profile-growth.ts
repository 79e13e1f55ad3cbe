/**
 * A diagnostic, not a bench: CPU profiles (CDP Profiler, in the import worker) of the storage
 * bench's growth row, importing its folder of 500 sessions into an empty library and into a
 * library of 2,000+ (each by a fresh worker, as the bench), with the self-time tables side by side
 * and the functions whose self time differs most.
 *
 *   PROFILE_PORT=4306 npx tsx test/bench/profile-growth.ts [count=2000] [folder=500] [rounds=2]
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { serveSources } from './source-server.ts';
import { type Profile, summarizeProfile, workerChannel } from './worker-profile.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const PORT = Number(process.env.PROFILE_PORT ?? 4306);
const [count = 2000, folder = 500, rounds = 2] = process.argv.slice(2).map(Number);
const mod = "import('/test/bench/profile-growth-page.ts')";

/** Self time by function name (ms). */
function selfTimes(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  profile.samples.forEach((leaf, i) => {
    const f = byId.get(leaf)!.callFrame;
    const name = `${f.functionName || '(anon)'} ${f.url.split('/').pop()?.split('?')[0]}:${f.lineNumber}`;
    out.set(name, (out.get(name) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  });
  return out;
}

const server = await serveSources(root, PORT, false);
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const page = await browser.newPage();
  await page.goto(new URL('__storage_bench__', server.resolvedUrls?.local[0]).href);
  page.on('console', (m) => m.text().startsWith('growth') && console.log(`${new Date().toISOString().slice(11, 19)} ${m.text()}`));
  const cdp = await page.context().newCDPSession(page);
  const targets = new Map<string, string>();
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { url: string } }) => {
    if (process.env.DEBUG) console.log(`attach event ${e.targetInfo.url} ${e.sessionId}`);
    targets.set(e.targetInfo.url, e.sessionId);
  });
  if (process.env.DEBUG)
    cdp.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => console.log(`from ${e.sessionId}: ${e.message.slice(0, 80)}`));
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  await page.evaluate(`${mod}.then((m) => m.setup(${JSON.stringify({ count, folder })}))`);
  const totals: Record<string, Map<string, number>> = { empty: new Map(), library: new Map() };
  const times: Record<string, number[]> = { empty: [], library: [] };
  for (let r = 0; r < rounds; r++) {
    for (const which of r % 2 ? (['library', 'empty'] as const) : (['empty', 'library'] as const)) {
      const rootName = (await page.evaluate(`${mod}.then((m) => m.open('${which}'))`)) as string;
      const sessionId = [...targets].reverse().find(([url]) => url.includes(`root=${rootName}`))?.[1];
      if (!sessionId) throw new Error(`no worker target for ${rootName}`);
      const send = workerChannel(cdp, sessionId);
      if (process.env.DEBUG) console.log(`attached to ${rootName}: ${sessionId} of ${targets.size}`);
      await send('Profiler.enable');
      await send('Profiler.setSamplingInterval', { interval: 200 });
      await send('Profiler.start');
      const ms = (await page.evaluate(`${mod}.then((m) => m.run())`)) as number;
      const { profile } = (await send('Profiler.stop')) as { profile: Profile };
      await page.evaluate(`${mod}.then((m) => m.close())`);
      times[which].push(ms);
      for (const [k, v] of selfTimes(profile)) totals[which].set(k, (totals[which].get(k) ?? 0) + v);
      if (process.env.FULL) console.log(summarizeProfile(`${which} round ${r}: ${ms.toFixed(0)} ms`, profile, 25, 40));
      console.log(`${which}: ${ms.toFixed(0)} ms`);
    }
  }
  const names = new Set([...totals.empty.keys(), ...totals.library.keys()]);
  const rows = [...names].map((n) => ({ n, e: (totals.empty.get(n) ?? 0) / rounds, l: (totals.library.get(n) ?? 0) / rounds }));
  const sum = (which: 'e' | 'l') => rows.filter((x) => !x.n.startsWith('(idle)')).reduce((s, x) => s + x[which], 0);
  console.log(
    `\nbusy ms a round: empty ${sum('e').toFixed(0)}, library ${sum('l').toFixed(0)}; wall: empty ${times.empty.map((x) => x.toFixed(0))}, library ${times.library.map((x) => x.toFixed(0))}`,
  );
  console.log('\nself ms a round, largest first (empty | library | difference):');
  for (const x of rows.sort((a, b) => b.l + b.e - (a.l + a.e)).slice(0, 30))
    console.log(`${x.e.toFixed(0).padStart(7)} ${x.l.toFixed(0).padStart(7)} ${(x.l - x.e).toFixed(0).padStart(7)}  ${x.n}`);
  console.log('\nlargest differences:');
  for (const x of rows.sort((a, b) => Math.abs(b.l - b.e) - Math.abs(a.l - a.e)).slice(0, 20))
    console.log(`${x.e.toFixed(0).padStart(7)} ${x.l.toFixed(0).padStart(7)} ${(x.l - x.e).toFixed(0).padStart(7)}  ${x.n}`);
} finally {
  await browser.close();
  await server.close();
}
