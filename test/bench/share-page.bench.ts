/**
 * The one-file share page beside pi's own HTML export of the same file
 * (`exportFromFile` from @mariozechner/pi-coding-agent), both opened from a file in the same
 * Chromium, driven over a bare DevTools pipe (bare-cdp.ts says why not through Playwright): the page's size against the session's, the time from navigation to the last message on
 * screen (pi: the last shown element of its message list rendered, as its page opens at the top; ours: the last message's row on screen), and the longest main-thread task until then
 * (PerformanceObserver 'longtask'; a row says so when no task of 50 ms or more was reported), at 1× and 4× CPU throttling
 * (Emulation.setCPUThrottlingRate). Inputs: a 974 KB real pi session and the reader bench's
 * generated sessions. Sizes: `npm run bench -- share --sizes 10,30` (thousands of entries).
 */
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildHtmlPage } from '../../src/worker/share/html-page.ts';
import { buildSharePageAssets } from '../../vite.share-page.ts';
import { type BareBrowser, launchBare, newBarePage } from './bare-cdp.ts';
import { type BenchContext, type BenchSuite, observedRow } from './harness.ts';
import { ensureReaderSession, GENERATED } from './reader-fixture.ts';

const REAL = resolve(import.meta.dirname, '../../fixtures/real/pi-mono-large-session.jsonl');
/**
 * pi's `exportFromFile` (its package exports it from dist/core/export-html only, outside its exports
 * map), run on a copy: pi's SessionManager.open migrates an old file in place, and a fixture must not change.
 */
async function piExportFromFile(input: string, output: string): Promise<void> {
  const copy = output.replace(/\.html$/, '.input.jsonl');
  copyFileSync(input, copy);
  input = copy;
  const file = resolve(import.meta.dirname, '../../node_modules/@mariozechner/pi-coding-agent/dist/core/export-html/index.js');
  const mod = (await import(pathToFileURL(file).href)) as { exportFromFile(input: string, options: { outputPath: string }): Promise<string> };
  await mod.exportFromFile(input, { outputPath: output });
}

/** How long a page may take before it counts as never showing its last message. */
const GIVE_UP_MS = 90_000;

interface Opened {
  /** ms from navigation start to the last message on screen; null when it never got there. */
  lastMessage: number | null;
  longestTask: number;
  longTasks: number;
  error?: string;
}

/** The file line (1-based) of the last user or assistant message: our page's last row ("#<line>: link …"). */
function lastMessageLine(text: string): number {
  const lines = text.trimEnd().split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const role = JSON.parse(lines[i]).message?.role;
    if (role === 'user' || role === 'assistant') return i + 1;
  }
  return 0;
}

/**
 * What runs in the page before its own script (DevTools adds it, so the page's CSP does not apply): a
 * long-task observer, errors, and a check each frame for the last message on screen, which resolves
 * `__rhoDone` with the time it got there. pi's list ends with elements it hides (assistant turns that
 * are only tool calls): its last shown one; pi's page opens at its top (its #content does not scroll),
 * so rendered is enough there, ours must have the row on screen.
 */
function watcher(kind: 'ours' | 'pi', line: number): string {
  return `(() => {
    const w = window;
    w.__tasks = []; w.__errors = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) w.__tasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });
    addEventListener('error', (e) => w.__errors.push(String(e.message)));
    addEventListener('unhandledrejection', (e) => w.__errors.push(String(e.reason)));
    w.__rhoDone = new Promise((resolve) => {
      const check = () => {
        const last = ${kind === 'pi'}
          ? [...(document.getElementById('messages')?.children ?? [])].reverse().find((el) => el.getBoundingClientRect().height > 0)
          : [...document.querySelectorAll('a.rd-link')].find((a) => a.textContent === '#${line}');
        const box = last?.getBoundingClientRect();
        if (box && box.height > 0 && (${kind === 'pi'} || (box.top < innerHeight && box.bottom > 0))) resolve(performance.now());
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
      setTimeout(() => resolve(null), ${GIVE_UP_MS});
    });
  })()`;
}

/** Opens a page from its file (fresh browser context, CPU throttled by `rate`) and waits for its last message on screen. */
async function open(browser: BareBrowser, url: string, kind: 'ours' | 'pi', line: number, rate: number): Promise<Opened> {
  const page = await newBarePage(browser, { width: 1200, height: 900 });
  try {
    await page.send('Page.addScriptToEvaluateOnNewDocument', { source: watcher(kind, line) });
    await page.send('Emulation.setCPUThrottlingRate', { rate });
    await page.send('Page.navigate', { url });
    const value = async (expression: string) =>
      (await page.send<{ result: { value?: unknown } }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })).result.value;
    // Until the file's document has replaced about:blank, each try waits a frame.
    const loaded = `new Promise((r) => requestAnimationFrame(() => r(location.href === ${JSON.stringify(url)} && '__rhoDone' in window)))`;
    let ready = false;
    while (!ready) ready = (await value(loaded)) === true;
    const done = (await value('window.__rhoDone')) as number | null;
    const { tasks, errors } = (await value('({ tasks: window.__tasks, errors: window.__errors })')) as { tasks: number[]; errors: string[] };
    return { lastMessage: done, longestTask: Math.max(0, ...tasks), longTasks: tasks.length, error: errors[0] };
  } finally {
    await page.dispose();
  }
}

/** Both pages of one session file: sizes, then each opened at each CPU rate. */
async function measure(ctx: BenchContext, browser: BareBrowser, label: string, file: string, assets: Awaited<ReturnType<typeof buildSharePageAssets>>) {
  const bytes = new Uint8Array(readFileSync(file));
  mkdirSync(GENERATED, { recursive: true });
  const slug = label.replace(/[^\w]+/g, '-');
  const ours = join(GENERATED, `share-${slug}.html`);
  writeFileSync(ours, new Uint8Array(await (await buildHtmlPage(bytes, { title: label }, assets)).arrayBuffer()));
  const pi = join(GENERATED, `share-${slug}.pi.html`);
  ctx.log(`share: pi's export of ${label}…`);
  await piExportFromFile(file, pi);
  const mb = (bytes.length / 1e6).toFixed(1);
  const ourSize = statSync(ours).size / bytes.length;
  const piSize = statSync(pi).size / bytes.length;
  ctx.row({
    name: `share page size, ${label} (${mb} MB)`,
    value: ourSize,
    unit: '× session',
    baseline: piSize,
    ratio: ourSize / piSize,
    target: '≤ 0.5× session',
    ok: ourSize <= 0.5,
    note: `pi's page: ${piSize.toFixed(2)}× the session`,
  });
  const line = lastMessageLine(new TextDecoder().decode(bytes));
  const runs = ctx.runs ?? 1;
  for (const rate of [1, 4]) {
    const best = async (kind: 'ours' | 'pi', url: string) => {
      let result: Opened | null = null;
      for (let r = 0; r < runs; r++) {
        ctx.log(`share: ${kind} ${label} at ${rate}× (run ${r + 1}/${runs})…`);
        const o = await open(browser, url, kind, line, rate);
        if (!result || (o.lastMessage ?? Infinity) < (result.lastMessage ?? Infinity)) result = o;
      }
      return result!;
    };
    const o = await best('ours', `file://${ours}`);
    const p = await best('pi', `file://${pi}`);
    const piNote =
      p.lastMessage === null
        ? `pi's page never showed its last message (${p.error ?? `gave up after ${GIVE_UP_MS / 1000} s`})`
        : `pi: ${p.lastMessage.toFixed(0)} ms`;
    const big = label.startsWith('30k');
    ctx.row({
      name: `share page open → last message, ${label}, ${rate}× CPU`,
      value: o.lastMessage ?? Number.NaN,
      unit: 'ms',
      ...(p.lastMessage !== null && o.lastMessage !== null ? { baseline: p.lastMessage, ratio: o.lastMessage / p.lastMessage } : {}),
      ...(big && rate === 1 ? { target: '< 2000 ms', ok: o.lastMessage !== null && o.lastMessage < 2000 } : {}),
      note: o.lastMessage === null ? `ours never showed it (${o.error ?? 'timeout'}); ${piNote}` : piNote,
    });
    ctx.row(
      observedRow(
        {
          name: `share page longest main-thread task, ${label}, ${rate}× CPU`,
          value: o.longestTask,
          unit: 'ms',
          ...(p.longTasks > 0 ? { baseline: p.longestTask } : {}),
          ...(big && rate === 1 ? { target: '≤ 50 ms', ok: o.longestTask <= 50 } : {}),
          note: `${o.longTasks} long tasks; pi's page: ${p.longTasks ? `${p.longTasks} long tasks, longest ${p.longestTask.toFixed(0)} ms` : 'no task of 50 ms or more'}`,
        },
        o.longTasks,
      ),
    );
  }
}

export default {
  name: 'share',
  description: "one-file share page vs pi's HTML export: size, open to last message, longest main-thread task (1×/4× CPU)",
  defaultSizes: [10, 30],
  async run(ctx) {
    ctx.log('share: building the share page…');
    const assets = await buildSharePageAssets();
    const browser = launchBare();
    try {
      await measure(ctx, browser, 'real 974 KB', REAL, assets);
      for (const k of ctx.sizes ?? [10, 30]) await measure(ctx, browser, `${k}k entries`, ensureReaderSession(k * 1000), assets);
    } finally {
      await browser.close();
    }
  },
} satisfies BenchSuite;
