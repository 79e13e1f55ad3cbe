/**
 * A worker's CPU profile through the page's CDP session, for the diagnostic scripts
 * (`profile-import.ts`, `import-growth.ts`): commands to one worker target and a summary of the
 * samples by function, self and inclusive.
 */
import type { CDPSession } from '@playwright/test';

/** The part of a CDP `Profiler.Profile` the summary reads. */
export interface Profile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
  startTime?: number;
  endTime?: number;
}

/** Messages to one worker target through the page's session (non-flat: Target.sendMessageToTarget). */
export function workerChannel(cdp: CDPSession, sessionId: string) {
  let next = 1;
  const waiting = new Map<number, (v: unknown) => void>();
  cdp.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message) as { id?: number; result?: unknown; error?: unknown };
    if (m.id !== undefined) waiting.get(m.id)?.(m.error ? Promise.reject(new Error(JSON.stringify(m.error))) : m.result);
  });
  return (method: string, params: Record<string, unknown> = {}) =>
    new Promise<any>((res, rej) => {
      const id = next++;
      waiting.set(id, res);
      // A target that is gone (or never was) says so here: the caller hears it instead of waiting forever.
      cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(rej);
    });
}

/** The profile's busy and idle time and its top functions by self and by inclusive time, as text. */
export function summarizeProfile(label: string, profile: Profile, selfRows = 25, inclusiveRows = 45): string {
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
  const span = profile.endTime !== undefined && profile.startTime !== undefined ? ` over ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms` : '';
  return `\n=== ${label}: ${(busy / 1000).toFixed(0)} ms busy in the worker, ${(idle / 1000).toFixed(0)} ms idle (${profile.samples.length} samples${span})\nself:\n${top(self, selfRows)}\ninclusive:\n${top(incl, inclusiveRows)}`;
}
