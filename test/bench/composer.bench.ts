/**
 * A reply streaming into an open session, through the app's real path: a 4,000-token reply at 200
 * tokens a second (the loopback replay server's slow Anthropic stream, test/host/replay-server.ts,
 * stepped from here on a clock) into the composer under a 30,000-entry session in the reader, at
 * full speed and with the CPU slowed 4× (`Emulation.setCPUThrottlingRate`, after the import).
 *
 * Rows: the longest main-thread task while the reply streams (PerformanceObserver 'longtask'), and
 * the time from a token's arrival in the page (the worker's message that carries it, seen before
 * the app's own listener) to the first frame that shows it: every token of the reply ends in its
 * number (`parser17`), the page reads the reply's last number after each frame (a task posted from
 * requestAnimationFrame, after the frame's paint), and a token counts as shown in the first frame
 * whose reply holds its number or a later one. Reported as the 95th percentile, in ms and in
 * frames (1: the first frame after the token came). Then the longest task from the reply's end to
 * its entry read back from disk in the transcript.
 *
 *   npm run bench -- composer                  (sizes: thousands of entries, default 30)
 *   COMPOSER_BENCH_OUT=dir                     serve another build (e.g. main's) for side-by-side runs
 */
import { chromium, type Page } from '@playwright/test';
import { addModel } from '../host/add-model.ts';
import { startReplayServer } from '../host/replay-server.ts';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { type BenchContext, observedRow } from './harness.ts';
import { importReaderSession, servePreview } from './reader-page.ts';

const PORT = Number(process.env.COMPOSER_BENCH_PORT ?? 4204);
const RATES = (process.env.COMPOSER_BENCH_RATES ?? '1,4').split(',').map(Number);
const TOKENS = Number(process.env.COMPOSER_BENCH_TOKENS ?? 4000);
const PER_SECOND = 200;
/** Frames sent at once before the slow part: message_start, ping, the text block's start. */
const HEAD = 3;

const WORDS = 'the parser reads each line and keeps its bytes so export gives back exactly what came in while the tree walk stays iterative'.split(' ');

/**
 * The reply's tokens: markdown of headings, paragraphs, lists and TypeScript code blocks, every
 * token one word ending in its own number (the markers the page looks for), structure riding on
 * the word that follows it.
 */
export function replyTokens(count: number): string[] {
  const tokens: string[] = [];
  let i = 0;
  const word = () => `${WORDS[i % WORDS.length]}${i++}`;
  while (i < count) {
    const section = Math.floor(i / 200);
    tokens.push(`${i ? '\n\n' : ''}## Step ${WORDS[section % WORDS.length]} ${word()}`);
    for (let n = 0; n < 60 && i < count; n++) tokens.push(`${n === 0 ? '\n\n' : n % 17 === 0 ? ' **' : ' '}${word()}${n % 17 === 0 && n ? '**' : ''}`);
    for (let item = 0; item < 5 && i < count; item++)
      for (let n = 0; n < 8 && i < count; n++) tokens.push(`${n === 0 ? (item ? '\n' : '\n\n') + '- ' : ' '}${word()}`);
    for (let line = 0; line < 6 && i < count; line++)
      for (let n = 0; n < 6 && i < count; n++)
        tokens.push(`${line === 0 && n === 0 ? '\n\n```ts\n' : n === 0 ? '\n' : ' '}${n === 0 ? 'const ' : ''}${word()}`);
    if (i < count) tokens.push(`\n\`\`\`\n\n${word()}`);
    for (let n = 0; n < 59 && i < count; n++) tokens.push(` ${n % 11 === 5 ? '`' : ''}${word()}${n % 11 === 5 ? '`' : ''}`);
  }
  return tokens.slice(0, count);
}

/**
 * Installed before the app loads: the worker's messages that carry reply text (seen first, before
 * the app's listener), each frame's reply (after its paint), and the long tasks. Plain JS source:
 * the bench runs under tsx, whose helpers do not exist in the page.
 */
export const PAGE_SCRIPT = `(() => {
  const last = (text) => { let max = -1; for (const m of text.slice(-400).matchAll(/[a-z](\\d+)/g)) max = Math.max(max, Number(m[1])); return max; };
  // The last 400 characters of the element's textContent, read from its last text nodes: the whole
  // reply's text, made again at every frame, would add the probe's own work and garbage to the page measured.
  const end = (root) => {
    let node = root;
    while (node.lastChild) node = node.lastChild;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    walker.currentNode = node;
    let text = '';
    for (let t = node.nodeType === 3 ? node : walker.previousNode(); t && text.length < 400; t = walker.previousNode()) text = t.data + text;
    return text;
  };
  const probe = { arrivals: [], frames: [], longTasks: [], running: false };
  window.__stream = probe;
  const Base = window.Worker;
  window.Worker = class extends Base {
    constructor(url, options) {
      super(url, options);
      this.addEventListener('message', (event) => {
        const s = event.data && event.data.kind === 'progress' && event.data.progress && event.data.progress.stream;
        if (probe.running && s && s.kind === 'text') probe.arrivals.push([performance.now(), last(s.delta)]);
      });
    }
  };
  const channel = new MessageChannel();
  let frameAt = 0;
  channel.port1.onmessage = () => {
    const reply = document.querySelector('.composer-reply');
    probe.frames.push([frameAt, reply ? last(end(reply)) : -1]);
  };
  const loop = () => requestAnimationFrame(() => {
    if (!probe.running) return;
    frameAt = performance.now();
    channel.port2.postMessage(null);
    loop();
  });
  probe.start = () => {
    probe.running = true;
    new PerformanceObserver((list) => { for (const e of list.getEntries()) if (probe.running) probe.longTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask' });
    loop();
  };
})()`;

interface Probe {
  arrivals: Array<[number, number]>;
  frames: Array<[number, number]>;
  longTasks: Array<[number, number]>;
}

/** Token latencies (ms and frames) from the arrivals and the frames' last shown token. */
export function latencies(probe: Probe, tokens: number): { ms: number[]; frames: number[]; missing: number } {
  const arrived = new Float64Array(tokens).fill(-1);
  let upTo = -1;
  for (const [t, max] of probe.arrivals) for (; upTo < Math.min(max, tokens - 1); ) arrived[++upTo] = t;
  const ms: number[] = [];
  const frames: number[] = [];
  let missing = 0;
  let f = 0;
  for (let i = 0; i < tokens; i++) {
    const at = arrived[i];
    if (at < 0) {
      missing++;
      continue;
    }
    // The first frame after the token came, then the first that showed it.
    while (f < probe.frames.length && probe.frames[f][0] < at) f++;
    let g = f;
    while (g < probe.frames.length && probe.frames[g][1] < i) g++;
    if (g >= probe.frames.length) {
      missing++;
      continue;
    }
    ms.push(probe.frames[g][0] - at);
    frames.push(g - f + 1);
  }
  return { ms, frames, missing };
}

const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] : Number.NaN;
};

/**
 * Releases `count` tokens on the bench's clock, PER_SECOND of them a second: every tick sends those
 * due by then (the tick is pacing, not a wait for an event: a slower machine sends more per tick).
 * Returns how long the stream took.
 */
export async function releaseOnClock(count: number, step: () => void): Promise<number> {
  const t0 = performance.now();
  for (let sent = 0; sent < count; ) {
    const due = Math.min(count, Math.floor(((performance.now() - t0) * PER_SECOND) / 1000) + 1);
    for (; sent < due; sent++) step();
    await new Promise((r) => setTimeout(r, 2));
  }
  return performance.now() - t0;
}

/** Adds the replay server's Anthropic endpoint as a model in Settings → Models. */
export const addBenchModel = (page: Page, baseUrl: string) =>
  addModel(page, { provider: 'anthropic', key: 'sk-ant-bench-key', baseUrl, model: 'claude-sonnet-4-5' });

export default {
  name: 'composer',
  description: 'A 4,000-token reply streamed at 200 tokens/s into an open 30,000-entry session: longest task, token arrival → on screen',
  defaultSizes: [30],
  async run(ctx: BenchContext) {
    const stop = await servePreview(PORT, { outDir: process.env.COMPOSER_BENCH_OUT, log: (m) => ctx.log(`composer bench: ${m}`) });
    const server = await startReplayServer();
    const browser = await chromium.launch(chromiumLaunchOptions());
    const tokens = replyTokens(TOKENS);
    try {
      for (const thousands of ctx.sizes ?? [30])
        for (const rate of RATES) {
          const entries = Math.round(thousands * 1000);
          const label = `${TOKENS} tokens at ${PER_SECOND}/s into ${entries / 1000}k entries${rate === 1 ? '' : `, ${rate}× CPU`}`;
          ctx.log(`composer bench: ${label}`);
          const context = await browser.newContext({ viewport: { width: 412, height: 915 } });
          const page = await context.newPage();
          await page.addInitScript(PAGE_SCRIPT);
          const id = await importReaderSession(page, PORT, entries);
          await addBenchModel(page, server.baseUrl('anthropic'));
          await page.goto(`http://localhost:${PORT}/#/s/${encodeURIComponent(id)}`);
          const composer = page.getByRole('region', { name: 'Continue this session' });
          await composer.getByRole('textbox', { name: 'Message' }).fill('Walk me through the change, step by step.');
          await page.waitForSelector('.vl-row .rd-row', { timeout: 120_000 });
          await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate });
          server.script({ kind: 'slow', reply: { text: tokens, usage: { input: 90_000, output: TOKENS } }, after: HEAD });
          const request = server.received.length;
          await page.evaluate(() => (window as unknown as { __stream: { start(): void } }).__stream.start());
          await composer.getByRole('button', { name: 'Send' }).click();
          await server.until((r) => (r[request]?.sent ?? 0) >= HEAD);
          const streamedMs = await releaseOnClock(tokens.length, () => server.step());
          await page.waitForFunction(
            (n) => {
              const frames = (window as unknown as { __stream: Probe }).__stream.frames;
              return frames.length > 0 && frames[frames.length - 1][1] >= n - 1;
            },
            tokens.length,
            { timeout: 120_000 },
          );
          const streamed = await page.evaluate(() => {
            const p = (window as unknown as { __stream: Probe }).__stream;
            return { arrivals: [...p.arrivals], frames: [...p.frames], longTasks: [...p.longTasks] };
          });
          // The rest of the stream (its end frames), the turn written and read back from disk; then the page at rest.
          for (let i = 0; i < 3; i++) server.step();
          await composer.locator('.composer-reply').waitFor({ state: 'detached', timeout: 180_000 });
          const end = await page.evaluate(
            (from) =>
              new Promise<Array<[number, number]>>((resolve) =>
                requestIdleCallback(() => resolve((window as unknown as { __stream: Probe }).__stream.longTasks.slice(from)), { timeout: 10_000 }),
              ),
            streamed.longTasks.length,
          );
          const { ms, frames, missing } = latencies(streamed, tokens.length);
          const longest = Math.max(0, ...streamed.longTasks.map((t) => t[1]));
          const phone = rate > 1;
          ctx.row(
            observedRow(
              { name: `stream ${label}: longest main-thread task`, value: longest, unit: 'ms', ...(phone ? { target: '< 50 ms', ok: longest < 50 } : {}) },
              streamed.longTasks.length,
            ),
          );
          ctx.row(
            observedRow(
              { name: `stream ${label}: main-thread tasks of 50 ms or more`, value: streamed.longTasks.length, unit: 'tasks' },
              streamed.longTasks.length,
            ),
          );
          const framesP95 = p95(frames);
          ctx.row({
            name: `stream ${label}: token arrival → on screen, 95th percentile`,
            value: framesP95,
            unit: 'frames',
            target: '≤ 1 frame',
            ok: framesP95 <= 1,
            note: `${p95(ms).toFixed(1)} ms; ${ms.length} tokens timed${missing ? `, ${missing} not seen in a frame` : ''}; ${streamed.frames.length} frames; streamed in ${(streamedMs / 1000).toFixed(1)} s`,
          });
          ctx.row({ name: `stream ${label}: token arrival → on screen, 95th percentile (ms)`, value: p95(ms), unit: 'ms' });
          const endLongest = Math.max(0, ...end.map((t) => t[1]));
          ctx.row(
            observedRow(
              { name: `stream ${label}: longest task from the reply's end to the page at rest (turn written and read back)`, value: endLongest, unit: 'ms' },
              end.length,
            ),
          );
          await context.close();
        }
    } finally {
      await browser.close();
      await server.close();
      stop();
    }
  },
};
