// The parts of generated entries (test/gen/session.ts): tool calls, thinking, images, usage, the
// assistant message around them, and omp's title slot. Each draws from the generator's one Rng in
// the same order as before they moved here, so a seed still gives the same file byte for byte.
import type { Rng } from './prng.ts';
import { base64Bytes, code, paragraph, path } from './text.ts';

/** A model as pi records it on an assistant message. */
export interface ModelRef {
  api: string;
  provider: string;
  model: string;
}

export const MODELS_PI: ModelRef[] = [
  { api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5' },
  { api: 'openai-codex-responses', provider: 'openai-codex', model: 'gpt-5' },
  { api: 'google-generative-ai', provider: 'google', model: 'gemini-2.5-pro' },
];
const TOOLS = ['read', 'bash', 'edit', 'write', 'grep', 'find'];
const MIMES = ['image/png', 'image/jpeg', 'image/webp'];

/** A tool call; `seq` makes its id unique within the file. */
export function toolCall(rng: Rng, seq: number): { type: 'toolCall'; id: string; name: string; arguments: Record<string, unknown> } {
  const name = rng.pick(TOOLS);
  const id = rng.pick(['toolu_', 'call_', 'fc_']) + rng.hex(16) + seq.toString(36);
  const args: Record<string, unknown> =
    name === 'bash'
      ? { command: rng.pick(['npm test', 'ls src', 'git diff --stat']) }
      : name === 'edit'
        ? { path: path(rng), oldText: code(rng, 2), newText: code(rng, 3) }
        : { path: path(rng), offset: rng.int(1, 400) };
  return { type: 'toolCall', id, name, arguments: args };
}

/** A thinking part, most with a signature. */
export function thinkingPart(rng: Rng): Record<string, unknown> {
  const part: Record<string, unknown> = { type: 'thinking', thinking: paragraph(rng, rng.int(1, 5)) };
  if (rng.chance(0.8)) part.thinkingSignature = base64Bytes(rng, rng.int(48, 300));
  return part;
}

/** An image part: inline base64, or (omp, not tiny) a blob reference. */
export function image(rng: Rng, flavor: string, [lo, hi]: [number, number]): Record<string, unknown> {
  const mimeType = rng.pick(MIMES);
  const decoded = rng.int(lo, hi);
  if (flavor === 'omp' && decoded >= 768) return { type: 'image', data: `blob:sha256:${rng.hex(64)}`, mimeType };
  return { type: 'image', data: base64Bytes(rng, decoded), mimeType };
}

/** The size of a tool's output: mostly small, some large. */
export function toolBytes(rng: Rng): number {
  const r = rng.next();
  if (r < 0.6) return rng.int(80, 2000);
  if (r < 0.9) return rng.int(2000, 12000);
  return rng.int(12000, 50000);
}

/** An assistant message's usage with pi's cost breakdown. */
export function usage(rng: Rng): Record<string, unknown> {
  const input = rng.int(10, 5000),
    output = rng.int(10, 3000),
    cacheRead = rng.int(0, 100000),
    cacheWrite = rng.int(0, 4000);
  const c = (t: number, per: number) => Math.round(t * per) / 1e6;
  const cost = { input: c(input, 3), output: c(output, 15), cacheRead: c(cacheRead, 0.3), cacheWrite: c(cacheWrite, 3.75), total: 0 };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
}

function zeroUsage(): Record<string, unknown> {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

/** An assistant message around `content` (an error or an abort has zero usage); `tick` gives its timestamp. */
export function assistantMessage(
  rng: Rng,
  m: ModelRef,
  content: unknown[],
  stopReason: string,
  tick: () => number,
  errorMessage?: string,
): Record<string, unknown> {
  const msg: Record<string, unknown> = {
    role: 'assistant',
    content,
    api: m.api,
    provider: m.provider,
    model: m.model,
    usage: stopReason === 'error' || stopReason === 'aborted' ? zeroUsage() : usage(rng),
    stopReason,
    timestamp: tick(),
  };
  if (errorMessage) msg.errorMessage = errorMessage;
  if (rng.chance(0.3)) msg.responseId = 'resp_' + rng.hex(24);
  return msg;
}

/**
 * omp's fixed-width title slot (§1.3): key order `type,v,title,source?,updatedAt,pad`, the line
 * including its '\n' exactly 256 UTF-8 bytes; long titles are cut on code points.
 */
export function titleSlot(title: string, updatedAt: string, source?: 'auto' | 'user'): string {
  const build = (t: string, pad: string) =>
    JSON.stringify(source ? { type: 'title', v: 1, title: t, source, updatedAt, pad } : { type: 'title', v: 1, title: t, updatedAt, pad });
  const cps = Array.from(title);
  let lo = 0,
    hi = cps.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (Buffer.byteLength(build(cps.slice(0, mid).join(''), '')) + 1 <= 256) lo = mid;
    else hi = mid - 1;
  }
  const t = cps.slice(0, lo).join('');
  const line = build(t, ' '.repeat(256 - 1 - Buffer.byteLength(build(t, ''))));
  if (Buffer.byteLength(line) + 1 !== 256) throw new Error('title slot is not 256 bytes');
  return line;
}
