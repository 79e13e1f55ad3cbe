// The reader diagnostic's tracing (profile-reader.ts): a trace of what a step does in the page, and
// its longest main-thread tasks with what they spent their time on (trace events and CPU samples by
// function; LIGHT, FORCED, LAYOUTS and BY_CPU as profile-reader.ts describes them).
import type { Page } from '@playwright/test';
import type { TraceEvent } from './trace-tasks.ts';

export async function trace(page: Page, run: () => Promise<unknown>): Promise<TraceEvent[]> {
  const browser = page.context().browser()!;
  await browser.startTracing(page, {
    categories: process.env.LIGHT
      ? ['devtools.timeline', 'disabled-by-default-devtools.timeline', ...(process.env.FORCED ? ['disabled-by-default-devtools.timeline.stack'] : [])]
      : ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'v8.execute', 'blink.user_timing'],
  });
  await run();
  const buffer = await browser.stopTracing();
  const json = JSON.parse(buffer.toString('utf8'));
  return (Array.isArray(json) ? json : json.traceEvents) as TraceEvent[];
}

export function analyse(label: string, events: TraceEvent[], top = 5) {
  const names = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  // The renderer main thread with the most RunTask time is the page's.
  let main: { pid: number; tid: number } | null = null;
  let best = -1;
  for (const n of names) {
    const sum = events.filter((e) => e.pid === n.pid && e.tid === n.tid && e.name === 'RunTask').reduce((s, e) => s + (e.dur ?? 0), 0);
    if (sum > best) {
      best = sum;
      main = { pid: n.pid, tid: n.tid };
    }
  }
  if (!main) return console.log(label, 'no main thread');
  const mine = events.filter((e) => e.pid === main!.pid && e.tid === main!.tid);
  // BY_CPU=1: the tasks that took the most thread time first (a shared, loaded machine stretches wall time, not this).
  const key = (e: TraceEvent) => (process.env.BY_CPU ? (e.tdur ?? 0) : (e.dur ?? 0));
  const tasks = mine.filter((e) => e.name === 'RunTask' && e.ph === 'X').sort((a, b) => key(b) - key(a));
  // CPU samples of the main thread.
  const samples: Array<{ ts: number; stack: string[] }> = [];
  const profiles = new Map<string, { start: number; nodes: Map<number, { fn: string; parent?: number }>; t: number }>();
  for (const e of events) {
    if (e.pid !== main.pid) continue;
    if (e.name === 'Profile' && e.tid !== main.tid) continue;
    if (e.name === 'Profile') profiles.set(e.id!, { start: e.args!.data.startTime, nodes: new Map(), t: e.args!.data.startTime });
    if (e.name === 'ProfileChunk') {
      const p = profiles.get(e.id!);
      if (!p) continue;
      const data = e.args!.data;
      for (const node of data.cpuProfile?.nodes ?? []) {
        const cf = node.callFrame;
        const file = String(cf.url ?? '')
          .split('/')
          .pop();
        p.nodes.set(node.id, { fn: `${cf.functionName || '(anon)'} ${file}:${cf.lineNumber}`, parent: node.parent });
      }
      const ids: number[] = data.cpuProfile?.samples ?? [];
      const deltas: number[] = data.timeDeltas ?? [];
      for (let i = 0; i < ids.length; i++) {
        p.t += deltas[i] ?? 0;
        const stack: string[] = [];
        let n: number | undefined = ids[i];
        while (n !== undefined) {
          const node = p.nodes.get(n);
          if (!node) break;
          stack.push(node.fn);
          n = node.parent;
        }
        samples.push({ ts: p.t, stack });
      }
    }
  }
  console.log(
    `\n=== ${label}: ${tasks.length} tasks, longest: ${tasks
      .slice(0, 10)
      .map((t) => `${((t.dur ?? 0) / 1000).toFixed(1)} (cpu ${((t.tdur ?? 0) / 1000).toFixed(1)})`)
      .join(', ')} ms; samples ${samples.length}`,
  );
  for (const task of tasks.slice(0, top)) {
    const end = task.ts + (task.dur ?? 0);
    const inside = mine.filter((e) => e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && e !== task);
    const byName = new Map<string, number>();
    for (const e of inside) byName.set(e.name, (byName.get(e.name) ?? 0) + (e.dur ?? 0));
    console.log(
      `-- task ${((task.dur ?? 0) / 1000).toFixed(1)} ms (cpu ${((task.tdur ?? 0) / 1000).toFixed(1)}): ` +
        [...byName]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([n, d]) => `${n} ${(d / 1000).toFixed(1)}`)
          .join(' | '),
    );
    const self = new Map<string, number>();
    const incl = new Map<string, number>();
    const within = samples.filter((s) => s.ts >= task.ts && s.ts <= end);
    for (const s of within) {
      self.set(s.stack[0], (self.get(s.stack[0]) ?? 0) + 1);
      for (const f of new Set(s.stack)) incl.set(f, (incl.get(f) ?? 0) + 1);
    }
    if (process.env.FORCED)
      for (const e of inside.filter((x) => (x.name === 'Layout' || x.name === 'UpdateLayoutTree') && (x.dur ?? 0) > 300)) {
        const stack = (e.args?.beginData?.stackTrace ?? e.args?.data?.stackTrace ?? []) as Array<{ functionName: string; url: string; lineNumber: number }>;
        console.log(
          `   ${e.name} ${((e.dur ?? 0) / 1000).toFixed(1)} ms ${stack.length ? 'forced by' : '(no JS stack)'} ${stack
            .slice(0, 6)
            .map((f) => `${f.functionName || '(anon)'}@${String(f.url).split('/').pop()}:${f.lineNumber}`)
            .join(' < ')}`,
        );
      }
    if (process.env.FORCED)
      console.log(
        '   calls: ' +
          inside
            .filter((e) => e.name === 'FunctionCall' || e.name === 'TimerFire' || e.name === 'EventDispatch' || e.name === 'HandlePostMessage')
            .slice(0, 12)
            .map(
              (e) =>
                `${e.name} ${((e.dur ?? 0) / 1000).toFixed(1)} ${e.args?.data?.functionName ?? e.args?.data?.type ?? ''}@${String(e.args?.data?.url ?? '')
                  .split('/')
                  .pop()}:${e.args?.data?.lineNumber ?? ''}`,
            )
            .join(' ; '),
      );
    if (process.env.LAYOUTS)
      for (const e of inside.filter((x) => x.name === 'Layout'))
        console.log(
          '   layout',
          ((e.dur ?? 0) / 1000).toFixed(1),
          JSON.stringify(e.args?.beginData ?? {}).slice(0, 300),
          JSON.stringify(e.args?.endData ?? {}).slice(0, 200),
        );
    // Direct children of the task, in order: the shape of the frame.
    const direct = inside.filter(
      (e) => !inside.some((p) => p !== e && p.ts <= e.ts && p.ts + (p.dur ?? 0) >= e.ts + (e.dur ?? 0) && (p.dur ?? 0) > (e.dur ?? 0)),
    );
    console.log(
      '   order: ' +
        direct
          .filter((e) => (e.dur ?? 0) > 500)
          .map(
            (e) =>
              `${e.name}${e.args?.data?.functionName ? '(' + e.args.data.functionName + ')' : e.args?.data?.type ? '(' + e.args.data.type + ')' : ''} ${((e.dur ?? 0) / 1000).toFixed(1)}`,
          )
          .join(' → '),
    );
    console.log(
      `   samples ${within.length}; self: ` +
        [...self]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 10)
          .map(([n, c]) => `${n}=${c}`)
          .join(' ; '),
    );
    console.log(
      `   inclusive: ` +
        [...incl]
          .sort((a, b) => b[1] - a[1])
          .filter(([n]) => !n.startsWith('(root)') && !n.startsWith('(program)'))
          .slice(0, 25)
          .map(([n, c]) => `${n}=${c}`)
          .join(' ; '),
    );
  }
}
