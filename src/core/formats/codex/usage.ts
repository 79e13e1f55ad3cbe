// Codex `token_count` events → pi `Usage` (session-format.md §3.4). Codex reports, after each model
// response, the cumulative `total_token_usage` and that response's `last_token_usage`; it repeats
// an event unchanged at some turn ends. Each response is counted once: an event whose total equals
// the previous one is a repeat. `input_tokens` includes cached ones (as in the Responses API);
// `output_tokens` includes reasoning.
import { type PiUsage as Usage, zeroUsage } from '../usage.ts';
import { isObj } from './parts.ts';

type Obj = Record<string, unknown>;

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** A Codex token usage object in pi's buckets (input without the cached part). */
export function piUsage(u: Obj): Usage {
  const cached = num(u.cached_input_tokens);
  const input = Math.max(0, num(u.input_tokens) - cached);
  const output = num(u.output_tokens);
  return { ...zeroUsage(), input, output, cacheRead: cached, totalTokens: input + cached + output };
}

export function addInto(acc: Usage, u: Usage): void {
  acc.input += u.input;
  acc.output += u.output;
  acc.cacheRead += u.cacheRead;
  acc.cacheWrite += u.cacheWrite;
  acc.totalTokens += u.totalTokens;
}

/** Reads token_count events in order: each new response's usage, or null for a repeat / an event without counts. */
export class TokenCounter {
  private last = '';
  /** Context size after the latest response (input + output of its last call), for a compaction's `tokensBefore`. */
  contextTokens = 0;

  next(payload: Obj): Usage | null {
    const info = payload.info;
    if (!isObj(info) || !isObj(info.total_token_usage)) return null;
    const total = info.total_token_usage;
    const key = JSON.stringify([total.input_tokens, total.cached_input_tokens, total.output_tokens, total.total_tokens]);
    if (key === this.last) return null;
    const previous = this.last ? (JSON.parse(this.last) as number[]) : [0, 0, 0, 0];
    this.last = key;
    const per = isObj(info.last_token_usage)
      ? info.last_token_usage
      : {
          input_tokens: num(total.input_tokens) - previous[0],
          cached_input_tokens: num(total.cached_input_tokens) - previous[1],
          output_tokens: num(total.output_tokens) - previous[2],
        };
    this.contextTokens = num(per.input_tokens) + num(per.output_tokens);
    return piUsage(per);
  }
}
