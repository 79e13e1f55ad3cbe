/**
 * The composer bench's stream (composer.bench.ts, profile-composer.ts): the reply's tokens, the
 * probe installed in the page, and one measured stream of a reply into an open session through the
 * app's real path (the loopback replay server's slow Anthropic stream, test/host/replay-server.ts,
 * stepped from here on a clock).
 */
import type { Browser, Page } from '@playwright/test';
import { addModel } from '../host/add-model.ts';
import type { startReplayServer } from '../host/replay-server.ts';
import { importReaderSession } from './reader-page.ts';

export const PER_SECOND = 200;
/** Frames sent at once before the slow part: message_start, ping, the text block's start. */
export const HEAD = 3;

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
  const probe = { arrivals: [], frames: [], longTasks: [], longFrames: [], running: false };
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
    // Long animation frames of 50 ms or more, with what their time went to (see attribute()).
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (probe.running && e.duration >= 50)
          probe.longFrames.push({
            duration: e.duration,
            rendering: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
            styleAndLayout: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0,
            scripts: e.scripts.map((s) => [s.invoker || s.invokerType, s.duration, s.forcedStyleAndLayoutDuration]),
          });
    }).observe({ type: 'long-animation-frame' });
    loop();
  };
})()`;

export interface Probe {
  arrivals: Array<[number, number]>;
  frames: Array<[number, number]>;
  longTasks: Array<[number, number]>;
  longFrames: LongFrame[];
}

/** A long animation frame as the probe keeps it: its time, its rendering's, and its scripts (invoker, time, forced style and layout). */
export interface LongFrame {
  duration: number;
  rendering: number;
  styleAndLayout: number;
  scripts: Array<[string, number, number]>;
}

/**
 * What a long frame's time went to, by the largest share: one kind of script (its invoker: the
 * worker's message with tokens, the frame's callback, a scheduler's task, an observer), the frame's
 * rendering (style, layout, paint), or neither (garbage collection, the browser's own work, or a
 * wait for a core on a loaded machine).
 */
export function attribute(frame: LongFrame): string {
  const parts = new Map<string, number>();
  let scripts = 0;
  for (const [invoker, ms, forced] of frame.scripts) {
    parts.set(`script ${invoker}`, (parts.get(`script ${invoker}`) ?? 0) + ms);
    scripts += ms;
    if (forced > ms / 2) parts.set(`forced layout in ${invoker}`, (parts.get(`forced layout in ${invoker}`) ?? 0) + forced);
  }
  parts.set('rendering (style, layout, paint)', frame.styleAndLayout);
  parts.set('unattributed (GC, browser, waiting)', Math.max(0, frame.duration - scripts - frame.styleAndLayout));
  return [...parts].sort((a, b) => b[1] - a[1])[0][0];
}

/** Long frames counted by what their time went to, commonest first. */
export function attribution(frames: LongFrame[]): string {
  const by = new Map<string, number[]>();
  for (const f of frames) by.set(attribute(f), [...(by.get(attribute(f)) ?? []), f.duration]);
  return [...by]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([what, ds]) => `${what} ${ds.length} (longest ${Math.max(...ds).toFixed(0)} ms)`)
    .join('; ');
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

export const p95 = (xs: number[]) => {
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

/** What one stream measured. */
export interface StreamFigures {
  /** Main-thread tasks of 50 ms or more while the reply streamed (ms each). */
  longTasks: number[];
  /** Token arrival → first frame that shows it, per token timed (ms and frames). */
  ms: number[];
  frames: number[];
  missing: number;
  /** Frames seen while streaming, and how long the stream took (ms). */
  frameCount: number;
  streamedMs: number;
  /** Animation frames of 50 ms or more while the reply streamed, with what their time went to. */
  longFrames: LongFrame[];
  /** Tasks of 50 ms or more from the reply's end to the page at rest (turn written and read back). */
  endTasks: number[];
}

/**
 * Opens a session of `entries` entries in a new phone-sized page of `browser` (the app served on
 * `port`), slows its CPU `rate` times and streams `tokens` into its composer at PER_SECOND a second;
 * then lets the turn be written and read back.
 */
export async function measureStream(
  browser: Browser,
  server: Awaited<ReturnType<typeof startReplayServer>>,
  opts: { port: number; entries: number; rate: number; tokens: string[] },
): Promise<StreamFigures> {
  const { port, entries, rate, tokens } = opts;
  const context = await browser.newContext({ viewport: { width: 412, height: 915 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(PAGE_SCRIPT);
    const id = await importReaderSession(page, port, entries);
    await addBenchModel(page, server.baseUrl('anthropic'));
    await page.goto(`http://localhost:${port}/#/s/${encodeURIComponent(id)}`);
    const composer = page.getByRole('region', { name: 'Continue this session' });
    await composer.getByRole('textbox', { name: 'Message' }).fill('Walk me through the change, step by step.');
    await page.waitForSelector('.vl-row .rd-row', { timeout: 120_000 });
    await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate });
    server.script({ kind: 'slow', reply: { text: tokens, usage: { input: 90_000, output: tokens.length } }, after: HEAD });
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
      return { arrivals: [...p.arrivals], frames: [...p.frames], longTasks: [...p.longTasks], longFrames: [...p.longFrames] };
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
    return {
      longTasks: streamed.longTasks.map((t) => t[1]),
      longFrames: streamed.longFrames,
      ms,
      frames,
      missing,
      frameCount: streamed.frames.length,
      streamedMs,
      endTasks: end.map((t) => t[1]),
    };
  } finally {
    await context.close();
  }
}
