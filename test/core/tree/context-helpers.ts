// Entries for the context tests: user, assistant and tool-result messages with usage, text, tool
// calls and images, linked into chains, and the AI SDK's own check of a context's messages.
import { modelMessageSchema } from 'ai';
import type { Entry, ModelMessage } from '../../../src/core/index.ts';
import { m } from '../helpers.ts';

/** Context output must be valid AI SDK messages, checked with the ai package's own schema. */
export function valid(out: ModelMessage[]): ModelMessage[] {
  for (const msg of out) {
    const r = modelMessageSchema.safeParse(msg);
    if (!r.success) throw new Error(`invalid ModelMessage ${JSON.stringify(msg).slice(0, 300)}: ${r.error.message}`);
  }
  return out;
}

export const usage0 = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
export const u = (id: string, parent: string | null, content: unknown, extra: object = {}) => m(id, parent, { role: 'user', content, timestamp: 1, ...extra });
export const a = (id: string, parent: string | null, content: unknown[], extra: object = {}) =>
  m(id, parent, {
    role: 'assistant',
    content,
    api: 'anthropic-messages',
    provider: 'anthropic',
    model: 'claude',
    usage: usage0,
    stopReason: 'stop',
    timestamp: 2,
    ...extra,
  });
export const tr = (id: string, parent: string | null, callId: string, content: unknown[], extra: object = {}) =>
  m(id, parent, { role: 'toolResult', toolCallId: callId, toolName: 'read', content, isError: false, timestamp: 3, ...extra });
export const T = (text: string) => ({ type: 'text', text });
export const call = (id: string) => ({ type: 'toolCall', id, name: 'read', arguments: { path: 'x' } });
export const img = (data = 'AAAA', mimeType = 'image/png') => ({ type: 'image', data, mimeType });

/** Links entries into a chain (each one's parent is the previous one). */
export function chain(...entries: Entry[]): Entry[] {
  return entries.map((x, i) => ({ ...x, parentId: i === 0 ? null : (entries[i - 1].id as string) }));
}
