/**
 * A diagnostic, not a bench: opens a one-file share page from its file (file://, as the share
 * bench and the e2e spec do), traces Chromium while it gets to its last message, and prints the
 * page's marks and its longest main-thread tasks with what they spent their time on.
 *
 *   npx tsx test/bench/profile-share.ts 30        a generated session of 30,000 entries
 *   npx tsx test/bench/profile-share.ts real      the 974 KB real session
 *   THROTTLE=4: the CPU slowed 4×; TOP=n: how many tasks to detail (default 5).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { buildHtmlPage } from '../../src/worker/share/html-page.ts';
import { buildSharePageAssets } from '../../vite.share-page.ts';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { ensureReaderSession, GENERATED } from './reader-fixture.ts';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: Record<string, any>;
}

const which = process.argv[2] ?? '30';
const file = which === 'real' ? resolve(import.meta.dirname, '../../fixtures/real/pi-mono-large-session.jsonl') : ensureReaderSession(Number(which) * 1000);
const bytes = new Uint8Array(readFileSync(file));
const text = new TextDecoder().decode(bytes);
const lines = text.trimEnd().split('\n');
let last = 0;
for (let i = lines.length - 1; i >= 0 && !last; i--) {
  const role = JSON.parse(lines[i]).message?.role;
  if (role === 'user' || role === 'assistant') last = i + 1;
}

/** Self time by function name of the samples of one thread inside [from, to]. */
function samplesOf(events: TraceEvent[], pid: number, tid: number) {
  const samples: Array<{ ts: number; stack: string[] }> = [];
  const profiles = new Map<string, { nodes: Map<number, { fn: string; parent?: number }>; t: number }>();
  for (const e of events) {
    if (e.pid !== pid) continue;
    if (e.name === 'Profile' && e.tid === tid) profiles.set(e.id!, { nodes: new Map(), t: e.args!.data.startTime });
    if (e.name !== 'ProfileChunk') continue;
    const p = profiles.get(e.id!);
    if (!p) continue;
    const data = e.args!.data;
    for (const node of data.cpuProfile?.nodes ?? []) {
      const cf = node.callFrame;
      p.nodes.set(node.id, { fn: `${cf.functionName || '(anon)'}:${cf.lineNumber}:${cf.columnNumber}`, parent: node.parent });
    }
    const ids: number[] = data.cpuProfile?.samples ?? [];
    const deltas: number[] = data.timeDeltas ?? [];
    for (let i = 0; i < ids.length; i++) {
      p.t += deltas[i] ?? 0;
      const stack: string[] = [];
      for (let n: number | undefined = ids[i]; n !== undefined; ) {
        const node = p.nodes.get(n);
        if (!node) break;
        stack.push(node.fn);
        n = node.parent;
      }
      samples.push({ ts: p.t, stack });
    }
  }
  return samples;
}

function top(map: Map<string, number>, n: number): string {
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${k}=${v.toFixed?.(1) ?? v}`)
    .join(' ; ');
}

async function main() {
  const assets = await buildSharePageAssets();
  mkdirSync(GENERATED, { recursive: true });
  const html = join(GENERATED, `profile-share-${which}.html`);
  writeFileSync(html, new Uint8Array(await (await buildHtmlPage(bytes, { title: which }, assets)).arrayBuffer()));
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    if (process.env.THROTTLE) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.THROTTLE) });
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'v8.execute', 'blink.user_timing'],
    });
    await page.goto(`file://${html}`, { waitUntil: 'commit' });
    const at = await page
      .waitForFunction(
        (line) => {
          const el = [...document.querySelectorAll('a.rd-link')].find((a) => a.textContent === `#${line}`);
          if (!el) return false;
          const box = el.getBoundingClientRect();
          return box.height > 0 && box.top < innerHeight && box.bottom > 0 ? performance.now() : false;
        },
        last,
        { polling: 'raf', timeout: 90_000 },
      )
      .then((h) => h.jsonValue() as Promise<number>);
    const marks = await page.evaluate(() => performance.getEntriesByType('mark').map((m) => `${m.name} ${m.startTime.toFixed(0)}`));
    const events = JSON.parse((await browser.stopTracing()).toString('utf8')).traceEvents as TraceEvent[];
    console.log(`last message (line ${last}) on screen at ${at.toFixed(0)} ms; marks: ${marks.join(', ')}`);
    const threads = events.filter((e) => e.name === 'thread_name');
    for (const thread of threads.filter((t) => ['CrRendererMain', 'DedicatedWorker thread'].includes(t.args?.name))) {
      const mine = events.filter((e) => e.pid === thread.pid && e.tid === thread.tid);
      const tasks = mine.filter((e) => e.name === 'RunTask' && e.ph === 'X');
      const busy = tasks.reduce((s, e) => s + (e.dur ?? 0), 0) / 1000;
      if (busy < 20) continue;
      tasks.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0));
      const first = tasks.reduce((m, e) => Math.min(m, e.ts), Infinity);
      console.log(
        `\n=== ${thread.args!.name} ${thread.tid}: busy ${busy.toFixed(0)} ms in ${tasks.length} tasks; longest ${tasks
          .slice(0, 8)
          .map((t) => (t.dur! / 1000).toFixed(0))
          .join(', ')}`,
      );
      const samples = samplesOf(events, thread.pid, thread.tid);
      for (const task of tasks.slice(0, Number(process.env.TOP ?? 5))) {
        const end = task.ts + (task.dur ?? 0);
        const inside = mine.filter((e) => e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && e !== task);
        const byName = new Map<string, number>();
        for (const e of inside) byName.set(e.name, (byName.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
        const self = new Map<string, number>();
        for (const s of samples.filter((s) => s.ts >= task.ts && s.ts <= end)) self.set(s.stack[0], (self.get(s.stack[0]) ?? 0) + 1);
        console.log(`-- task at +${((task.ts - first) / 1000).toFixed(0)} ms, ${(task.dur! / 1000).toFixed(1)} ms: ${top(byName, 8)}`);
        console.log(`   self samples: ${top(self, 10)}`);
      }
    }
  } finally {
    await browser.close();
  }
}

await main();
