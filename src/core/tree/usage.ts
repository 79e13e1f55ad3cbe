// Token usage and cost (§0.5.3): AI SDK usage → pi's Usage, and sums over a branch.
import type { Usage } from '../schema/message-schemas.ts';
import type { Entry } from '../schema/types.ts';

/** Cost in US dollars: a total, or per bucket. */
export type CostInput = number | { input?: number; output?: number; cacheRead?: number; cacheWrite?: number; total?: number };

/** The AI SDK's `LanguageModelUsage` (ai 6), optionally with a cost in USD. Every field may be missing. */
export interface SdkUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cachedInputTokens?: number;
  inputTokenDetails?: { noCacheTokens?: number; cacheReadTokens?: number; cacheWriteTokens?: number };
  outputTokenDetails?: { textTokens?: number; reasoningTokens?: number };
  cost?: CostInput;
  [k: string]: unknown;
}

/** What `totals` and `addUsage` keep: tokens (`usageTotal`), output tokens and cost in USD. */
export interface Totals {
  tokens: number;
  output: number;
  cost: number;
}

const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);

/**
 * A usage's total tokens, the one rule every screen uses: `totalTokens` when it is a positive
 * number, else the sum of the four buckets. Older pi wrote usage without `totalTokens`; pi's own
 * `calculateContextTokens` reads `usage.totalTokens || input + output + cacheRead + cacheWrite`.
 */
export function usageTotal(u: Partial<Record<'input' | 'output' | 'cacheRead' | 'cacheWrite' | 'totalTokens', unknown>> | null | undefined): number {
  if (!u || typeof u !== 'object') return 0;
  return n(u.totalTokens) || n(u.input) + n(u.output) + n(u.cacheRead) + n(u.cacheWrite);
}

/**
 * pi's Usage from an AI SDK usage: `input` excludes cached tokens, `totalTokens` is the sum of the
 * four buckets, missing numbers are 0, and `null` gives zeros.
 */
export function usage(u: SdkUsage | null | undefined): Usage {
  const details = u?.inputTokenDetails ?? {};
  const cacheRead = n(details.cacheReadTokens ?? u?.cachedInputTokens);
  const cacheWrite = n(details.cacheWriteTokens);
  const input = details.noCacheTokens !== undefined ? n(details.noCacheTokens) : Math.max(0, n(u?.inputTokens) - cacheRead - cacheWrite);
  const output = n(u?.outputTokens);
  const c = u?.cost;
  const cost =
    typeof c === 'number'
      ? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: n(c) }
      : { input: n(c?.input), output: n(c?.output), cacheRead: n(c?.cacheRead), cacheWrite: n(c?.cacheWrite), total: 0 };
  if (typeof c !== 'number') cost.total = c?.total !== undefined ? n(c.total) : cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
}

/** What every screen says for a cost of 0 beside tokens: no price was recorded for those turns. */
export const NO_PRICE = 'no price recorded';

/**
 * Whether a cost was recorded: a positive cost, or nothing spent (no tokens). A cost of exactly 0
 * beside tokens is what pi writes when it has no price for the model, and what a Claude Code or
 * Codex conversion carries (they store no prices): no price recorded, never "$0".
 */
export function costRecordedFor(cost: number, tokens: number): boolean {
  return cost > 0 || tokens === 0;
}

/** Totals with nothing added yet. */
export const ZERO_TOTALS: Totals = Object.freeze({ tokens: 0, output: 0, cost: 0 });

/** Adds one assistant message's pi usage to a running total (for a host that sums as messages arrive). */
export function addUsage(acc: Totals, u: Partial<Usage> | null | undefined): Totals {
  if (!u || typeof u !== 'object') return acc;
  return { tokens: acc.tokens + usageTotal(u), output: acc.output + n(u.output), cost: acc.cost + n(u.cost?.total) };
}

/** Summed usage over a branch's assistant messages: `{tokens, output, cost}` (pi's Usage fields); `from`: the sums of the branch before them. */
export function totals(branch: readonly Entry[], from: Totals = ZERO_TOTALS): Totals {
  let acc = from;
  for (const e of branch) {
    const m = e.message as { role?: unknown; usage?: Partial<Usage> } | undefined;
    if (e.type === 'message' && m?.role === 'assistant') acc = addUsage(acc, m.usage);
  }
  return acc;
}
