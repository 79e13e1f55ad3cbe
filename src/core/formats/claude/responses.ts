// One API response is written by Claude Code as several `assistant` lines sharing `message.id` and
// `requestId`, each carrying the response's usage as it stood when the line was written (the
// output count grows). Usage is counted once per response: each bucket's largest value over its lines.
import { isObject, type Json } from './content.ts';
import type { SourceLine } from './records.ts';

/** The response a Claude assistant line belongs to: message.id + requestId (the line's uuid when there is no message id). */
export function responseKey(r: Json, uuid: string): string {
  const m = isObject(r.message) ? r.message : {};
  return `${typeof m.id === 'string' ? m.id : uuid}|${typeof r.requestId === 'string' ? r.requestId : ''}`;
}

const BUCKETS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const;

/** Each response's usage (largest value of each token bucket over its lines). */
export function usageByResponse(lines: readonly SourceLine[]): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const { record: r } of lines) {
    if (r.type !== 'assistant' || typeof r.uuid !== 'string' || !isObject(r.message) || !isObject(r.message.usage)) continue;
    const key = responseKey(r, r.uuid);
    const u = r.message.usage;
    const acc = out.get(key) ?? {};
    for (const b of BUCKETS) {
      const v = u[b];
      if (typeof v === 'number' && v > ((acc[b] as number | undefined) ?? 0)) acc[b] = v;
    }
    out.set(key, acc);
  }
  return out;
}
