// A session's usage, kept small enough to live in the library index: sums per 15-minute UTC slice
// and model, for the active branch and for the rest of the file. 15 minutes because every time
// zone's offset is a multiple of it (hours would split +5:30 and +5:45 days wrongly), so the page
// can group slices into the user's local days without the entries.
import { addUsage, costRecordedFor, ZERO_TOTALS } from '../tree/usage.ts';
import type { Entry } from '../schema/types.ts';

/** Milliseconds in one slice of the digest. */
export const SLICE_MS = 15 * 60_000;

/**
 * One bucket, as a tuple (the index holds thousands): see the `B_*` positions. Tokens follow the
 * core's rule (`addUsage`): `totalTokens`, or the four kinds summed when it is missing.
 */
export type UsageBucket = number[];

/** Slice offset from the digest's `start` (-1: no time known). */
export const B_SLICE = 0;
/** Index into the digest's `models`. */
export const B_MODEL = 1;
/** Assistant turns. */
export const B_TURNS = 2;
export const B_INPUT = 3;
export const B_OUTPUT = 4;
export const B_CACHE_READ = 5;
export const B_CACHE_WRITE = 6;
/** Total tokens (core `addUsage`). */
export const B_TOKENS = 7;
/** Recorded cost in USD (`cost.total`). */
export const B_COST = 8;
/** Turns whose usage recorded a cost (0 of them: the cost is "not recorded", not $0). */
export const B_COSTED = 9;
/** Tool calls made by the turns. */
export const B_CALLS = 10;
/** Tool results marked `isError`. */
export const B_ERRORS = 11;
const WIDTH = 12;
// A collected row: entry index, absolute slice, then the bucket's fields from B_MODEL on.
const ROW = WIDTH + 1;

/** Which coding agent wrote a session (the core's agentMark decides; unknown counts as pi). */
export type UsageAgent = 'pi' | 'omp' | 'claude-code' | 'codex';

/** A session's usage for the index. */
export interface UsageDigest {
  agent: UsageAgent;
  /** "provider/model" names the buckets point to. */
  models: string[];
  /** The first slice (ms since epoch / SLICE_MS) of any bucket; offsets count from it. */
  start: number;
  /** Buckets of entries on the active branch. */
  branch: UsageBucket[];
  /** Buckets of entries on other branches (all branches = branch + other). */
  other: UsageBucket[];
}

/** An empty digest (a header-only file). */
export function emptyUsageDigest(agent: UsageAgent = 'pi'): UsageDigest {
  return { agent, models: [], start: 0, branch: [], other: [] };
}

const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The model of an assistant message as the reader's Stats names it ("provider/model"). */
export function usageModelName(message: Record<string, unknown>): string {
  const provider = typeof message.provider === 'string' ? message.provider : '';
  const model = typeof message.model === 'string' ? message.model : 'unknown model';
  return provider ? `${provider}/${model}` : model;
}

/** The time of an entry in ms: its envelope timestamp, else its message's, else NaN. */
function timeOf(entry: Entry, message: Record<string, unknown>): number {
  if (typeof entry.timestamp === 'string') {
    const t = Date.parse(entry.timestamp);
    if (Number.isFinite(t)) return t;
  }
  return typeof message.timestamp === 'number' && Number.isFinite(message.timestamp) ? message.timestamp : Number.NaN;
}

/**
 * Collects a digest one entry at a time, in file order (the storage scan feeds it every entry it
 * reads); `finish` splits the sums by whether each entry is on the active branch.
 * `zeroCostUnrecorded`: the entries are a conversion from an agent that stores no prices (Claude
 * Code, Codex), so a cost of 0 means none was recorded.
 */
export function createUsageCollector(opts: { zeroCostUnrecorded?: boolean } = {}) {
  const models: string[] = [];
  const modelIndex = new Map<string, number>();
  const rows: number[] = [];
  const callModel = new Map<string, number>();
  let lastTime = Number.NaN;
  let lastModel = -1;

  const modelId = (name: string) => {
    let i = modelIndex.get(name);
    if (i === undefined) {
      i = models.length;
      models.push(name);
      modelIndex.set(name, i);
    }
    return i;
  };
  const sliceAt = (t: number) => {
    if (Number.isFinite(t)) lastTime = t;
    return Number.isFinite(lastTime) ? Math.floor(lastTime / SLICE_MS) : Number.NaN;
  };
  const push = (index: number, slice: number, fields: number[]) => {
    rows.push(index, slice, ...fields);
  };

  return {
    /** The header's time: entries without a time of their own before any dated one get it. */
    header(header: Record<string, unknown> | null) {
      if (!header) return;
      if (typeof header.timestamp === 'string') sliceAt(Date.parse(header.timestamp));
    },
    /** Adds one entry (as read from the file, before any slimming); `index` is its position among the entries. */
    add(entry: Entry, index: number) {
      if (entry.type !== 'message' || !isObject(entry.message)) return;
      const m = entry.message;
      if (m.role === 'assistant') {
        const model = modelId(usageModelName(m));
        lastModel = model;
        const u = isObject(m.usage) ? m.usage : null;
        const t = addUsage(ZERO_TOTALS, u);
        // A converted Claude Code or Codex file writes cost 0 where its source stored no price
        // (`zeroCostUnrecorded`), and pi writes 0 beside tokens when it has no price for the model:
        // such a turn has no recorded cost ("no price recorded", never $0).
        const total = u && isObject(u.cost) ? u.cost.total : undefined;
        const priced = typeof total === 'number' && Number.isFinite(total) && costRecordedFor(total, t.tokens);
        const costed = priced && !(opts.zeroCostUnrecorded && total === 0) ? 1 : 0;
        let calls = 0;
        if (Array.isArray(m.content))
          for (const p of m.content)
            if (isObject(p) && p.type === 'toolCall') {
              calls++;
              if (typeof p.id === 'string') callModel.set(p.id, model);
            }
        push(index, sliceAt(timeOf(entry, m)), [
          model,
          1,
          num(u?.input),
          num(u?.output),
          num(u?.cacheRead),
          num(u?.cacheWrite),
          t.tokens,
          costed ? t.cost : 0,
          costed,
          calls,
          0,
        ]);
      } else if (m.role === 'toolResult' && m.isError === true) {
        const known = typeof m.toolCallId === 'string' ? callModel.get(m.toolCallId) : undefined;
        const model = known ?? (lastModel >= 0 ? lastModel : modelId('unknown model'));
        push(index, sliceAt(timeOf(entry, m)), [model, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
      }
    },
    /** The digest; `onBranch(index)` says whether the entry at that index is on the active branch. */
    finish(onBranch: (index: number) => boolean, agent: UsageAgent = 'pi'): UsageDigest {
      let start = Number.POSITIVE_INFINITY;
      for (let r = 0; r < rows.length; r += ROW) if (Number.isFinite(rows[r + 1])) start = Math.min(start, rows[r + 1]);
      if (!Number.isFinite(start)) start = 0;
      const maps = [new Map<string, UsageBucket>(), new Map<string, UsageBucket>()];
      for (let r = 0; r < rows.length; r += ROW) {
        const slice = Number.isFinite(rows[r + 1]) ? rows[r + 1] - start : -1;
        const key = `${slice} ${rows[r + 2]}`;
        const map = maps[onBranch(rows[r]) ? 0 : 1];
        let b = map.get(key);
        if (!b) {
          b = new Array<number>(WIDTH).fill(0);
          b[B_SLICE] = slice;
          b[B_MODEL] = rows[r + 2];
          map.set(key, b);
        }
        for (let k = B_TURNS; k < WIDTH; k++) b[k] += rows[r + 1 + k];
      }
      return { agent, models, start, branch: [...maps[0].values()], other: [...maps[1].values()] };
    },
  };
}

/** Whether a value has the shape of a usage digest (the index is hand-checked, without zod). */
export function isUsageDigest(x: unknown): x is UsageDigest {
  if (!isObject(x)) return false;
  const buckets = (v: unknown) => Array.isArray(v) && v.every((b) => Array.isArray(b) && b.length === WIDTH && b.every((n) => typeof n === 'number'));
  return (
    (x.agent === 'pi' || x.agent === 'omp' || x.agent === 'claude-code' || x.agent === 'codex') &&
    Array.isArray(x.models) &&
    x.models.every((m) => typeof m === 'string') &&
    typeof x.start === 'number' &&
    buckets(x.branch) &&
    buckets(x.other)
  );
}
