/**
 * A Chromium trace (categories TRACE_CATEGORIES) read as the renderer main thread's long tasks: every
 * top-level task of at least `minMs` wall time with what it consists of — the self time of each
 * event inside it (Layout, UpdateLayoutTree, Paint, FunctionCall, MajorGC, MinorGC, ParseHTML …),
 * the details of the big ones (objects laid out, elements restyled, the script that forced a layout,
 * the function a call ran) and, from the trace's CPU profile, the JS functions its samples fell in.
 * A diagnostic's view (profile-composer.ts TRACE=1), not a measurement.
 */

/** What to record: the timeline, V8 (GC, compiles), user timing and the sampling profiler. */
export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'blink.user_timing',
  'disabled-by-default-v8.cpu_profiler',
];

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: Record<string, any>;
}

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}

/** The CPU profile's samples on one thread: time (µs, the trace's clock) and leaf-to-root frames. */
function samplesOf(events: TraceEvent[], pid: number, tid: number): Array<{ ts: number; stack: Frame[] }> {
  const out: Array<{ ts: number; stack: Frame[] }> = [];
  const profiles = events.filter((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid);
  for (const profile of profiles) {
    const nodes = new Map<number, { frame: Frame; parent?: number }>();
    let t = profile.args?.data?.startTime ?? 0;
    for (const chunk of events.filter((e) => e.name === 'ProfileChunk' && e.pid === pid && e.id === profile.id)) {
      const data = chunk.args?.data ?? {};
      for (const n of data.cpuProfile?.nodes ?? []) nodes.set(n.id, { frame: n.callFrame, parent: n.parent });
      const ids: number[] = data.cpuProfile?.samples ?? [];
      const deltas: number[] = data.timeDeltas ?? [];
      ids.forEach((id, i) => {
        t += deltas[i] ?? 0;
        const stack: Frame[] = [];
        for (let n: number | undefined = id; n !== undefined; n = nodes.get(n)?.parent) {
          const node = nodes.get(n);
          if (node) stack.push(node.frame);
        }
        out.push({ ts: t, stack });
      });
    }
  }
  return out.sort((a, b) => a.ts - b.ts);
}

const ms = (us = 0) => (us / 1000).toFixed(1);
const where = (f: Frame) =>
  `${f.functionName || '(anon)'}@${String(f.url ?? '')
    .split('/')
    .pop()}:${f.lineNumber}`;
const idle = (f: Frame) => ['(program)', '(idle)', '(root)', '(garbage collector)'].includes(f.functionName);

/** One event's detail: what was laid out, restyled, called, collected. */
function detail(e: TraceEvent): string {
  const a = e.args ?? {};
  const stack = (a.beginData?.stackTrace ?? a.data?.stackTrace ?? []) as Frame[];
  const forced = stack.length ? ` forced by ${stack.slice(0, 3).map(where).join(' < ')}` : '';
  switch (e.name) {
    case 'Layout':
      return `${a.beginData?.dirtyObjects}/${a.beginData?.totalObjects} objects${a.beginData?.partialLayout ? ' partial' : ''}${forced}`;
    case 'UpdateLayoutTree':
      return `${a.elementCount ?? a.data?.elementCount ?? '?'} elements${forced}`;
    case 'FunctionCall':
      return `${a.data?.functionName || '(anon)'}@${String(a.data?.url ?? '')
        .split('/')
        .pop()}:${a.data?.lineNumber}`;
    case 'EventDispatch':
      return a.data?.type ?? '';
    case 'MajorGC':
    case 'MinorGC':
      return `${((a.usedHeapSizeBefore ?? 0) / 1e6).toFixed(1)}→${((a.usedHeapSizeAfter ?? 0) / 1e6).toFixed(1)} MB`;
    default:
      return '';
  }
}

/**
 * Prints the main thread's tasks of at least `minMs`, each with its events' self times, its big
 * events and its JS. `threadScale`: a task counts by its thread time times this (the CPU throttling
 * rate: on a loaded machine the wall time holds the waits for a core too), else by its wall time.
 */
export function printLongTasks(events: TraceEvent[], minMs = 50, threadScale = 0): void {
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const busy = (m: TraceEvent) => events.reduce((s, e) => s + (e.pid === m.pid && e.tid === m.tid && e.name === 'RunTask' ? (e.dur ?? 0) : 0), 0);
  const main = mains.sort((a, b) => busy(b) - busy(a))[0];
  if (!main) throw new Error('no renderer main thread in the trace');
  const mine = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const samples = samplesOf(events, main.pid, main.tid);
  // Top-level tasks: RunTask events not inside another one.
  const tasks: TraceEvent[] = [];
  for (const e of mine) if (e.name === 'RunTask' && (!tasks.length || e.ts >= tasks[tasks.length - 1].ts + tasks[tasks.length - 1].dur!)) tasks.push(e);
  const size = (t: TraceEvent) => (threadScale ? (t.tdur ?? 0) * threadScale : t.dur!);
  const long = tasks.filter((t) => size(t) >= minMs * 1000);
  const span = tasks.length ? (tasks[tasks.length - 1].ts - tasks[0].ts) / 1e6 : 0;
  const measure = threadScale ? `thread time × ${threadScale}` : 'wall';
  console.log(
    `${tasks.length} tasks over ${span.toFixed(1)} s; ${long.length} of ${minMs} ms or more (${measure}): ${long.map((t) => ms(size(t))).join(', ')}`,
  );
  const totals = new Map<string, number>();
  for (const task of long) {
    const end = task.ts + task.dur!;
    const inside = mine.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= end);
    // Self time: an event's time less its direct children's (events nest by time on one thread).
    const self = new Map<TraceEvent, number>();
    const open: TraceEvent[] = [task];
    self.set(task, task.dur!);
    for (const e of inside) {
      while (open.length > 1 && e.ts >= open[open.length - 1].ts + open[open.length - 1].dur!) open.pop();
      const parent = open[open.length - 1];
      self.set(parent, self.get(parent)! - e.dur!);
      self.set(e, e.dur!);
      open.push(e);
    }
    const by = new Map<string, number>();
    for (const [e, s] of self) by.set(e.name, (by.get(e.name) ?? 0) + s);
    for (const [n, s] of by) totals.set(n, (totals.get(n) ?? 0) + s);
    const at = ((task.ts - tasks[0].ts) / 1e6).toFixed(2);
    console.log(`\ntask at +${at} s: ${ms(task.dur)} ms wall, ${ms(task.tdur)} ms thread`);
    console.log(
      `  self: ${[...by]
        .filter(([, s]) => s >= 500)
        .sort((a, b) => b[1] - a[1])
        .map(([n, s]) => `${n} ${ms(s)}`)
        .join(' | ')}`,
    );
    const big = inside.filter((e) => e.dur! >= 2000 && e.name !== 'RunTask');
    for (const e of big.slice(0, 14)) console.log(`    ${e.name} ${ms(e.dur)} (self ${ms(self.get(e))}) ${detail(e)}`);
    // The JS its samples fell in: self by function, and the commonest stacks.
    const inTask = samples.filter((s) => s.ts >= task.ts && s.ts <= end && s.stack.length && !idle(s.stack[0]));
    if (inTask.length) {
      const fns = new Map<string, number>();
      const stacks = new Map<string, number>();
      for (const s of inTask) {
        fns.set(where(s.stack[0]), (fns.get(where(s.stack[0])) ?? 0) + 1);
        const key = s.stack
          .filter((f) => f.functionName !== '(root)')
          .slice(0, 6)
          .map(where)
          .join(' < ');
        stacks.set(key, (stacks.get(key) ?? 0) + 1);
      }
      const top = (m: Map<string, number>, k: number) =>
        [...m]
          .sort((a, b) => b[1] - a[1])
          .slice(0, k)
          .map(([n, c]) => `${n} ×${c}`);
      console.log(`  JS samples ${inTask.length}; self: ${top(fns, 8).join(' ; ')}`);
      for (const s of top(stacks, 4)) console.log(`    ${s}`);
    }
  }
  if (long.length)
    console.log(
      `\nself time over those tasks: ${[...totals]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 16)
        .map(([n, s]) => `${n} ${ms(s)}`)
        .join(' | ')}`,
    );
}

/**
 * The main thread's frames (tasks that painted) by thread time: how many, their median, 90th
 * percentile and longest, how many ran layout more than once, and the mean self time per frame of
 * each kind of event (a loaded machine inflates wall times, less so thread times).
 */
export function printFrames(events: TraceEvent[]): void {
  const main = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const busy = (m: TraceEvent) => events.reduce((s, e) => s + (e.pid === m.pid && e.tid === m.tid && e.name === 'RunTask' ? (e.dur ?? 0) : 0), 0);
  const m = main.sort((a, b) => busy(b) - busy(a))[0];
  const mine = events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const per = new Map<string, number>();
  const times: number[] = [];
  let relaid = 0;
  let i = 0;
  for (const task of mine.filter((e) => e.name === 'RunTask')) {
    const end = task.ts + task.dur!;
    while (i < mine.length && mine[i].ts < task.ts) i++;
    const inside: TraceEvent[] = [];
    for (let j = i; j < mine.length && mine[j].ts <= end; j++) if (mine[j] !== task) inside.push(mine[j]);
    if (!inside.some((e) => e.name === 'Paint')) continue;
    times.push((task.tdur ?? 0) / 1000);
    if (inside.filter((e) => e.name === 'Layout').length > 1) relaid++;
    const open: TraceEvent[] = [];
    for (const e of inside) {
      while (open.length && e.ts >= open[open.length - 1].ts + open[open.length - 1].dur!) open.pop();
      const parent = open[open.length - 1];
      const kind = (x: TraceEvent) => (x.name.startsWith('V8.GC') || x.name.endsWith('GC') ? 'GC' : x.name);
      if (parent) per.set(kind(parent), (per.get(kind(parent)) ?? 0) - (e.tdur ?? 0));
      per.set(kind(e), (per.get(kind(e)) ?? 0) + (e.tdur ?? 0));
      open.push(e);
    }
  }
  if (!times.length) return;
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))].toFixed(1);
  console.log(
    `\nframes that painted: ${times.length}, thread time median ${at(0.5)} ms, 90th percentile ${at(0.9)}, longest ${at(1)}; ${relaid} laid out more than once`,
  );
  console.log(
    `  self thread time per frame: ${[...per]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([n, s]) => `${n} ${(s / times.length / 1000).toFixed(2)}`)
      .join(' | ')}`,
  );
}

/**
 * The main thread's tasks by kind, in thread time (what a loaded machine inflates least): frames
 * (tasks that painted), tasks that parsed HTML (markdown swapped in; with the layout done in them),
 * worker messages, the rest; each with its count, total, 90th percentile and longest, and how many
 * tasks of all kinds took 10 and 20 ms or more. `from`/`to` (µs, the trace's clock) bound the tasks
 * counted. For comparing two builds traced one after the other.
 */
export function printTaskKinds(events: TraceEvent[], from = -Infinity, to = Infinity): void {
  const main = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const busy = (m: TraceEvent) => events.reduce((s, e) => s + (e.pid === m.pid && e.tid === m.tid && e.name === 'RunTask' ? (e.dur ?? 0) : 0), 0);
  const m = main.sort((a, b) => busy(b) - busy(a))[0];
  const mine = events
    .filter((e) => e.pid === m.pid && e.tid === m.tid && e.ph === 'X' && e.dur !== undefined && e.ts >= from && e.ts <= to)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const kinds = new Map<string, { times: number[]; layout: number }>();
  const all: number[] = [];
  let i = 0;
  for (const task of mine) {
    if (task.name !== 'RunTask' || (all.length && task.ts < i)) continue;
    const end = task.ts + task.dur!;
    const inside = mine.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= end);
    i = end;
    const has = (name: string) => inside.some((e) => e.name === name);
    const kind = has('Paint') ? 'frames' : has('ParseHTML') ? 'HTML parsed (markdown swaps)' : has('HandlePostMessage') ? 'messages' : 'other';
    const k = kinds.get(kind) ?? { times: [], layout: 0 };
    const thread = (task.tdur ?? 0) / 1000;
    k.times.push(thread);
    k.layout += inside.filter((e) => e.name === 'Layout').reduce((s, e) => s + (e.tdur ?? 0) / 1000, 0);
    kinds.set(kind, k);
    all.push(thread);
  }
  const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  console.log(
    `\ntasks by kind (thread time): ${all.length} tasks, ${sum(all).toFixed(0)} ms; ${all.filter((t) => t >= 10).length} of 10 ms or more, ${all.filter((t) => t >= 20).length} of 20 ms or more, longest ${Math.max(0, ...all).toFixed(1)}`,
  );
  for (const [kind, { times, layout }] of kinds)
    console.log(
      `  ${kind}: ${times.length}, ${sum(times).toFixed(0)} ms (layout ${layout.toFixed(0)}), 90th percentile ${q(times, 0.9).toFixed(1)}, longest ${Math.max(...times).toFixed(1)}`,
    );
}
