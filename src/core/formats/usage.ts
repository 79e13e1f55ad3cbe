// pi's Usage as the adapters write it (session-format.md §3.4): every bucket and cost present.

/** A pi `Usage` with all its fields, as a converted assistant message carries it. */
export interface PiUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

/** Zero usage (a message whose tokens were already counted, or a source that recorded none). */
export function zeroUsage(): PiUsage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}
