// The sync engine: one round both ways over a space (docs/sync-format.md). Read new packs →
// apply other devices' tips here → send what the space lacks → trash records → cursors →
// consolidate own packs. Every step is idempotent: a round cut anywhere is finished by the next.
import { randomHex } from './bytes.ts';
import { refreshCatalog } from './catalog.ts';
import { checkSpace } from './check.ts';
import { consolidate } from './consolidate.ts';
import { CopyIds } from './copy-ids.ts';
import { devicesOf } from './devices.ts';
import { applyTips } from './apply.ts';
import { buildGraphs } from './graph.ts';
import type { TrashRecord } from './pack.ts';
import { EMPTY_ID_PROMISE } from './prefix.ts';
import { emptyReport, type Round } from './round.ts';
import { sendCopy } from './send.ts';
import { SyncError, type EngineDeps, type LocalCopy, type RoundReport, type SyncEngine, type SyncState } from './types.ts';
import { PackWriter } from './writer.ts';

export function newState(): SyncState {
  return { v: 1, device: randomHex(6), seq: 1, packs: {}, refused: {}, blocks: {}, known: {}, trashed: [], cursors: {}, published: {}, retiring: null };
}

function trashRecords(state: SyncState): { rec: TrashRecord; ref: string }[] {
  const out: { rec: TrashRecord; ref: string }[] = [];
  for (const [name, h] of Object.entries(state.packs)) h.trash.forEach((rec, i) => out.push({ rec, ref: `${name}#${i}` }));
  return out;
}

/** Applies other devices' trash records to copies here that are exactly the trashed version. */
async function applyTrash(r: Round, copies: Map<string, CopyIds[]>): Promise<void> {
  for (const { rec, ref } of trashRecords(r.state)) {
    if (r.state.trashed.includes(ref) || ref.includes(`/${r.state.device}/`)) continue;
    const list = copies.get(rec.key) ?? [];
    for (const c of list.slice()) {
      if (c.copy.size !== rec.size || (await c.at(rec.size)) !== rec.id) continue;
      if (await r.deps.local.trash(c.copy.copy)) {
        list.splice(list.indexOf(c), 1);
        r.report.applied.push({ key: rec.key, copy: c.copy.copy, outcome: 'trashed' });
        r.emit({ type: 'applied', key: rec.key, copy: c.copy.copy, outcome: 'trashed' });
      }
    }
    r.state.trashed.push(ref);
  }
}

/** Advances this device's cursors over the other devices' packs that carry content. */
function advanceCursors(r: Round): boolean {
  for (const h of Object.values(r.state.packs)) {
    if (h.device === r.state.device || (!h.segments.length && !h.trash.length)) continue;
    if ((r.state.cursors[h.device] ?? 0) < h.seq) r.state.cursors[h.device] = h.seq;
  }
  return Object.entries(r.state.cursors).some(([d, s]) => r.state.published[d] !== s);
}

export function createEngine(deps: EngineDeps): SyncEngine {
  const now = deps.now ?? Date.now;
  const emit = deps.onEvent ?? (() => {});
  let running: Promise<RoundReport> | null = null;

  async function start(signal?: AbortSignal): Promise<Round> {
    const state = (await deps.state.load()) ?? newState();
    return { deps, state, now, report: emptyReport(), emit, signal, opened: new Map(), failed: new Map() };
  }

  async function run(signal?: AbortSignal): Promise<RoundReport> {
    const r = await start(signal);
    const { state, report } = r;
    const emptyId = await EMPTY_ID_PROMISE();
    emit({ type: 'progress', phase: 'list', done: 0, total: 1, bytes: 0 });
    const listed = await refreshCatalog(r);
    const firstTime = !Object.values(state.packs).some((h) => h.device === state.device);
    // what the user deleted here since the last round: trash records to send, and versions not to bring back
    const gone = (await deps.local.trashedHere?.()) ?? [];
    const goneRecords: TrashRecord[] = [];
    for (const c of gone) {
      const known = state.known[c.copy];
      if (known && known.size === c.size) goneRecords.push({ key: c.key, size: known.size, id: known.id, at: now() });
    }
    const trash = [...trashRecords(state).map((t) => t.rec), ...goneRecords];
    const graphs = buildGraphs(new Map(Object.entries(state.packs)), trash);
    const localList: LocalCopy[] = await deps.local.list(signal);
    const copies = new Map<string, CopyIds[]>();
    for (const c of localList) {
      const list = copies.get(c.key) ?? [];
      list.push(new CopyIds(r, { ...c }));
      copies.set(c.key, list);
    }
    let allHere = true;
    let applied = 0;
    for (const g of graphs.values()) {
      emit({ type: 'progress', phase: 'apply', done: applied++, total: graphs.size, bytes: 0 });
      const list = copies.get(g.key) ?? [];
      copies.set(g.key, list);
      if (!(await applyTips(r, g, list, emptyId, (copy, size) => new CopyIds(r, { key: g.key, copy, size, path: g.path })))) allHere = false;
    }
    await applyTrash(r, copies);
    const out = new PackWriter(r);
    for (const list of copies.values()) for (const c of list) await sendCopy(r, c, graphs.get(c.copy.key), emptyId, out);
    for (const rec of goneRecords) out.addTrash(rec);
    for (const c of gone) {
      delete state.known[c.copy];
      delete state.blocks[c.copy];
    }
    const cursorsMoved = advanceCursors(r);
    await out.flush(firstTime || cursorsMoved);
    await out.drain();
    if (gone.length) await deps.local.trashSent?.(gone.map((c) => c.copy));
    report.removed = await consolidate(r, deps.consolidateAfter ?? 64);
    await deps.state.save(state);
    report.devices = devicesOf(state, listed);
    const refusedLeft = Object.keys(state.refused).length;
    report.agreed = allHere && refusedLeft === 0;
    emit({ type: 'synced', at: now(), report });
    return report;
  }

  return {
    round(signal) {
      // one round at a time: a second call waits for the one running, then runs its own
      const next = (running ?? Promise.resolve())
        .catch(() => {})
        .then(() => run(signal))
        .catch((error: unknown) => {
          if (error instanceof SyncError) emit({ type: 'error', error });
          throw error;
        });
      running = next;
      return next.finally(() => {
        if (running === next) running = null;
      });
    },
    check: (signal) => checkSpace(deps, signal),
    async leave(signal) {
      const r = await start(signal);
      const out = new PackWriter(r);
      out.leaving();
      await out.flush(true);
      await out.drain();
    },
  };
}

export { SyncError };
