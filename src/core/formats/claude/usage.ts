// Anthropic usage → pi's Usage (§3.4). Anthropic's `input_tokens` already excludes the cached
// prompt (`cache_read_input_tokens`) and the prompt written to cache (`cache_creation_input_tokens`),
// so the buckets map one to one. Claude Code stores no prices: cost is 0 unless an old line carries
// `costUSD` (Claude Code 0.2/1.0), which then goes to `cost.total`.
import type { PiUsage } from '../usage.ts';
import { isObject, type Json } from './content.ts';

function n(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** pi's Usage from a Claude `message.usage` (and a line's `costUSD`). */
export function piUsage(usage: unknown, costUSD?: unknown): PiUsage {
  const u: Json = isObject(usage) ? usage : {};
  const input = n(u.input_tokens);
  const output = n(u.output_tokens);
  const cacheRead = n(u.cache_read_input_tokens);
  const cacheWrite = n(u.cache_creation_input_tokens);
  const total = n(costUSD);
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total },
  };
}

const STOP: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  tool_use: 'toolUse',
  max_tokens: 'length',
  refusal: 'error',
};

/** pi's stopReason for an Anthropic `stop_reason` (null while streaming: told from the content). */
export function stopReason(reason: unknown, hasToolCall: boolean): string {
  if (typeof reason === 'string' && STOP[reason]) return STOP[reason];
  return hasToolCall ? 'toolUse' : 'stop';
}
