// Codex CLI rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl) → pi v3. Placeholder: the
// adapter is being written (issue 15); the signature is the contract the registry uses.
import type { ConvertOptions, Converted } from '../index.ts';

/** True when these first records are a Codex rollout's ({timestamp, type: session_meta|response_item|…, payload}). */
export function looksLikeCodex(records: Record<string, unknown>[]): boolean {
  return records.some((r) => r.type === 'session_meta' && typeof r.payload === 'object');
}

export function codexToPi(_bytes: Uint8Array, _options: ConvertOptions): Converted {
  throw new Error('Codex adapter not written yet');
}
