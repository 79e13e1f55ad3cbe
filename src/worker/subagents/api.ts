// The reader's view of a session's family: the session that ran it (a way back), the one it was
// forked from, and the subagent transcripts it ran (linked from the entries that started them), with
// totals with and without them.
import type { SessionSummary, SummaryTotals } from '../../storage/types.ts';
import type { WorkerEnv } from '../env.ts';
import type { CallContext } from '../protocol.ts';
import { childrenOf } from './link.ts';

/** A session's parent and children, and its totals alone and with every subagent below it. */
export interface SessionFamily {
  /** The session itself (its `subagent` link says which entry of the parent started it). */
  self: SessionSummary | null;
  parent: SessionSummary | null;
  /** For a fork: the stored session it came from (its header's `parentSession`), null when it is none or not stored. */
  forkOf: SessionSummary | null;
  children: SessionSummary[];
  /** The session's own totals (its active branch). */
  own: SummaryTotals;
  /** Its own plus those of every subagent transcript below it (children, their children, …). */
  withSubagents: SummaryTotals;
  /** How many transcripts are below it, at any depth. */
  descendants: number;
}

/** The subagent part of the worker API. */
export function createSubagentApi(env: WorkerEnv) {
  const { store } = env;
  return {
    /** The parent and subagent transcripts of a session, and its totals with and without them. */
    async sessionFamily(params: { id: string }, _ctx?: CallContext): Promise<SessionFamily> {
      const list = await store.list();
      const self = list.find((s) => s.id === params.id) ?? (await store.get(params.id));
      const own = { ...(self?.totals ?? { tokens: 0, output: 0, cost: 0 }) };
      const withSubagents = { ...own };
      let descendants = 0;
      const seen = new Set([params.id]);
      const stack = childrenOf(list, params.id);
      while (stack.length) {
        const c = stack.pop() as SessionSummary;
        if (seen.has(c.id)) continue;
        seen.add(c.id);
        descendants++;
        withSubagents.tokens += c.totals.tokens;
        withSubagents.output += c.totals.output;
        withSubagents.cost += c.totals.cost;
        stack.push(...childrenOf(list, c.id));
      }
      const parent = self?.parentOf ? (list.find((s) => s.id === self.parentOf) ?? null) : null;
      const forkOf = self?.forkOf ? (list.find((s) => s.id === self.forkOf) ?? null) : null;
      return { self: self ?? null, parent, forkOf, children: childrenOf(list, params.id), own, withSubagents, descendants };
    },
  };
}
