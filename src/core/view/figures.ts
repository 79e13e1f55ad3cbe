// Figures as a reader reads them: digits grouped, a missing figure said in words.

/** A token count with its digits grouped: 12345 → "12,345". */
export function formatTokens(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/**
 * A compaction's before → after token figures: "12,345 → 900 tokens", "12,345 → not recorded"
 * (pi writes no `tokensAfter`; omp does), "not recorded → 900 tokens".
 */
export function tokenChange(before: number | null, after: number | null): string {
  const side = (n: number | null) => (n === null ? 'not recorded' : formatTokens(n));
  return `${side(before)} → ${side(after)}${after === null ? '' : ' tokens'}`;
}
