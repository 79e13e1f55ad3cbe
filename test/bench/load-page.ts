// The in-page half of load.bench.ts (served by vite): builds 1,000 sessions as Blobs (a per-file
// header before a shared body, so the page does not hold 500 MB of strings), imports them in one
// call through the real worker into OPFS, and watches the main thread meanwhile (long tasks and
// the largest gap between timer ticks). Also imports the full-size big bad-input cases.
import { connectWorker } from '../../src/worker/client.ts';
import { deepNesting, hugeLine, longChain } from '../core/read/bad-input-big.ts';

const T = '2026-05-06T07:08:09.000Z';

/** A body of `bytes` bytes or a little more: one user message then custom entries in a chain. */
export function body(bytes: number): Blob {
  const lines: string[] = [
    JSON.stringify({ type: 'message', id: 'l0000000', parentId: null, timestamp: T, message: { role: 'user', content: 'load test question', timestamp: 1 } }),
  ];
  let size = lines[0].length + 1;
  for (let i = 1; size < bytes; i++) {
    const line = JSON.stringify({
      type: 'custom',
      id: `l${i.toString(16).padStart(7, '0')}`,
      parentId: `l${(i - 1).toString(16).padStart(7, '0')}`,
      timestamp: T,
      customType: 'step',
      data: { i, text: `line ${i} of a load test session `.repeat(30) },
    });
    lines.push(line);
    size += line.length + 1;
  }
  return new Blob([lines.join('\n') + '\n']);
}

/** Watches the main thread: long tasks (PerformanceObserver) and the largest gap between 10 ms timer ticks. */
function watchMainThread() {
  let longest = 0;
  let count = 0;
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      longest = Math.max(longest, e.duration);
      count++;
    }
  });
  try {
    obs.observe({ type: 'longtask', buffered: false });
  } catch {
    // No long-task timing here: the tick gap still tells.
  }
  let last = performance.now();
  let gap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 10);
  return () => {
    clearInterval(timer);
    obs.disconnect();
    return { longestTask: longest, longTasks: count, maxTickGap: gap };
  };
}

/** Everything that runs in the page. */
export async function loadBench(args: { totalMb: number; sessions: number; big: { lineMb: number; chain: number; depth: number } }) {
  const root = `load-${Date.now()}`;
  const w = new Worker(`/src/worker/main.ts?root=${root}`, { type: 'module' });
  const api = connectWorker(w);
  await api.ping({ message: 'ready' });
  const out: Record<string, number> = {};
  const heap = () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0;
  let peakHeap = heap();
  const heapTimer = setInterval(() => (peakHeap = Math.max(peakHeap, heap())), 50);

  // 1,000 sessions, one import call.
  const per = Math.floor((args.totalMb * 1024 * 1024) / args.sessions);
  const shared = body(per);
  const files: File[] = [];
  for (let i = 0; i < args.sessions; i++) {
    const id = `10ad0000-0000-7000-8000-${i.toString().padStart(12, '0')}`;
    const header = JSON.stringify({ type: 'session', version: 3, id, timestamp: T, cwd: `/home/u/load/p${i % 20}`, title: `Load session ${i}` }) + '\n';
    files.push(new File([header, shared], `load-${i}.jsonl`));
  }
  out.bytes = files.reduce((n, f) => n + f.size, 0);
  // The watch starts in a task of its own: the one that built the 1,000 files (hundreds of ms of the
  // bench's own work) would otherwise end after it and count as the import's longest task.
  await new Promise((r) => setTimeout(r));
  const stop = watchMainThread();
  let progressMessages = 0;
  const t0 = performance.now();
  const report = await api.importFiles({ files }, { onProgress: () => progressMessages++ });
  out.importMs = performance.now() - t0;
  Object.assign(out, stop());
  out.added = report.items.filter((i) => i.outcome === 'added').length;
  out.progressMessages = progressMessages;
  const l0 = performance.now();
  out.listed = (await api.listSessions({})).length;
  out.listMs = performance.now() - l0;

  // The full-size big cases, each in its own import.
  for (const [key, c] of [
    ['line', hugeLine(args.big.lineMb)],
    ['chain', longChain(args.big.chain)],
    ['nesting', deepNesting(args.big.depth)],
  ] as const) {
    const file = new File(c.parts as BlobPart[], c.name);
    const stopBig = watchMainThread();
    const b0 = performance.now();
    const r = await api.importFiles({ files: [file] });
    out[`${key}Ms`] = performance.now() - b0;
    out[`${key}Bytes`] = c.size;
    out[`${key}Ok`] = r.items[0]?.outcome === 'added' && (await api.getSession({ id: c.id })).entryCount === c.entries ? 1 : 0;
    out[`${key}MaxTickGap`] = stopBig().maxTickGap;
  }
  clearInterval(heapTimer);
  out.peakPageHeap = peakHeap;
  w.terminate();
  await (await navigator.storage.getDirectory()).removeEntry(root, { recursive: true }).catch(() => undefined);
  return out;
}
