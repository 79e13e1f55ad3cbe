// Consolidation (docs/sync-format.md): this device rewrites its many small packs as few, joining
// runs of its own segments, then deletes the replaced packs only once every device that has not
// left has a cursor at or past them: no device loses bytes it has not read.
import { concat } from './bytes.ts';
import { parsePackName } from './envelope.ts';
import { latestHeaders } from './devices.ts';
import type { PackHeader, Segment, TrashRecord } from './pack.ts';
import { readPack, type Round } from './round.ts';
import { PackWriter } from './writer.ts';

/** Packs with less than this many segment bytes are "small": worth rewriting. */
const SMALL = 1024 * 1024;

function segmentBytesOf(h: PackHeader): number {
  return h.segments.reduce((n, s) => n + (s.to - s.from), 0);
}

/** Deletes retired packs whose content every other device has read. */
async function retire(r: Round): Promise<number> {
  const { state } = r;
  if (!state.retiring) return 0;
  const { names, upTo } = state.retiring;
  for (const [device, h] of latestHeaders(state)) {
    if (device === state.device || h.left) continue;
    if ((h.cursors[state.device] ?? 0) < upTo) return 0;
  }
  for (const name of names) {
    await r.deps.transport.delete(name, r.signal);
    delete state.packs[name];
  }
  state.retiring = null;
  await r.deps.state.save(state);
  return names.length;
}

/** Joins consecutive own segments where no other segment starts at the join. */
function joinRuns(segs: { s: Segment; bytes: Uint8Array }[], outgoing: Map<string, number>): { s: Segment; bytes: Uint8Array[] }[] {
  const byEnd = new Map<string, { s: Segment; bytes: Uint8Array[] }>();
  const runs: { s: Segment; bytes: Uint8Array[] }[] = [];
  const sorted = segs.slice().sort((a, b) => (a.s.key < b.s.key ? -1 : a.s.key > b.s.key ? 1 : a.s.from - b.s.from));
  for (const { s, bytes } of sorted) {
    const prev = byEnd.get(`${s.key}\n${s.base}`);
    if (prev && prev.s.to === s.from && outgoing.get(`${s.key}\n${s.base}`) === 1) {
      byEnd.delete(`${s.key}\n${s.base}`);
      prev.s = { ...prev.s, to: s.to, id: s.id };
      prev.bytes.push(bytes);
      byEnd.set(`${s.key}\n${s.id}`, prev);
      continue;
    }
    const run = { s: { ...s }, bytes: [bytes] };
    runs.push(run);
    byEnd.set(`${s.key}\n${s.id}`, run);
  }
  return runs;
}

/** One consolidation step of a round; gives how many own objects were removed. */
export async function consolidate(r: Round, after: number): Promise<number> {
  const removed = await retire(r);
  const { state } = r;
  if (state.retiring) return removed;
  const small = Object.entries(state.packs)
    .filter(([, h]) => h.device === state.device && segmentBytesOf(h) < SMALL)
    .sort((a, b) => a[1].seq - b[1].seq);
  if (small.length <= after) return removed;
  const outgoing = new Map<string, number>();
  for (const h of Object.values(state.packs)) for (const s of h.segments) outgoing.set(`${s.key}\n${s.base}`, (outgoing.get(`${s.key}\n${s.base}`) ?? 0) + 1);
  const segs: { s: Segment; bytes: Uint8Array }[] = [];
  const trash: TrashRecord[] = [];
  let done = 0;
  for (const [name, h] of small) {
    r.emit({ type: 'progress', phase: 'consolidate', done: done++, total: small.length, bytes: 0 });
    const pack = await readPack(r, name);
    pack.segments.forEach((s, i) => segs.push({ s: h.segments[i], bytes: s.bytes }));
    trash.push(...h.trash);
  }
  const out = new PackWriter(r);
  out.replacing(small.map(([, h]) => h.seq));
  for (const run of joinRuns(segs, outgoing)) await out.segment(run.s, concat(run.bytes));
  for (const t of trash) out.addTrash(t);
  await out.flush(true);
  await out.drain();
  state.retiring = { names: small.map(([n]) => n), upTo: Math.max(...small.map(([n]) => parsePackName(n)!.seq)) };
  await r.deps.state.save(state);
  return removed + (await retire(r));
}
