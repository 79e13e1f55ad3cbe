// Claude Code sessions (~/.claude/projects/<dir>/<uuid>.jsonl) → pi v3. Placeholder: the adapter
// is being written (issue 15); the signature is the contract the registry uses.
import type { ConvertOptions, Converted } from '../index.ts';

/** True when these first records are Claude Code's (user/assistant/summary/system lines with uuid/sessionId). */
export function looksLikeClaude(records: Record<string, unknown>[]): boolean {
  return records.some((r) => (typeof r.sessionId === 'string' && typeof r.type === 'string') || (r.type === 'summary' && typeof r.leafUuid === 'string'));
}

export function claudeToPi(_bytes: Uint8Array, _options: ConvertOptions): Converted {
  throw new Error('Claude Code adapter not written yet');
}
