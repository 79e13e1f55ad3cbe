// The Claude Code and Codex fixtures and what their source files say about themselves (ids,
// prompts, tool names, usage), and a worker API over a library in memory to import them into.
import { readFileSync } from 'node:fs';
import { createApi } from '../../src/worker/api.ts';
import { memoryStore } from '../storage/helpers.ts';

export const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/other-agents/${name}`, import.meta.url)));
export const records = (bytes: Uint8Array) =>
  new TextDecoder()
    .decode(bytes)
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, any>);

export function setup() {
  const { store, disk } = memoryStore({ now: () => 1_700_000_000_000 });
  const api = createApi({ store, now: () => new Date('2026-06-01T00:00:00.000Z'), randomId: () => 'abcdef01' });
  return { api, store, disk };
}

/** What the source says about itself: its session id, its first typed prompt, its tool names, whether it has token usage. */
export function sourceFacts(name: string, bytes: Uint8Array) {
  const rs = records(bytes);
  if (name.startsWith('claude/')) {
    const prompt = rs.find((r) => r.type === 'user' && !r.isMeta && typeof r.message?.content === 'string' && !r.message.content.startsWith('<'));
    const tools = new Set(
      rs
        .flatMap((r) => (r.type === 'assistant' && Array.isArray(r.message?.content) ? r.message.content : []))
        .filter((p: any) => p.type === 'tool_use')
        .map((p: any) => p.name as string),
    );
    return {
      agent: 'claude-code' as const,
      sessionId: rs.find((r) => typeof r.sessionId === 'string')?.sessionId as string,
      prompt: prompt?.message.content as string | undefined,
      tools,
      usage: rs.some((r) => r.type === 'assistant' && (r.message?.usage?.output_tokens ?? 0) > 0),
    };
  }
  const prompt = rs.find(
    (r) => r.type === 'event_msg' && r.payload?.type === 'user_message' && typeof r.payload.message === 'string' && r.payload.message.trim(),
  );
  const tools = new Set(
    rs
      .filter((r) => r.type === 'response_item' && (r.payload?.type === 'function_call' || r.payload?.type === 'custom_tool_call'))
      .map((r) => r.payload.name as string),
  );
  return {
    agent: 'codex' as const,
    sessionId: rs.find((r) => r.type === 'session_meta')?.payload.id as string,
    prompt: prompt?.payload.message as string | undefined,
    tools,
    usage: rs.some((r) => r.type === 'event_msg' && r.payload?.type === 'token_count' && (r.payload.info?.total_token_usage?.output_tokens ?? 0) > 0),
  };
}

/** Whether two byte arrays are the same bytes (expect's deep equality walks 2 MB element by element). */
export const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
export const original = async (api: ReturnType<typeof setup>['api'], id: string) => new Uint8Array(await (await api.exportSession({ id })).blob.arrayBuffer());

/** A prompt's first words, as the reader shows them (whitespace folded). */
export const start = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 30);
export const fold = (s: string) => s.replace(/\s+/g, ' ');

export const FILES = [
  'claude/Xu-Wentao-dotfile-v2.1.78-worktree.jsonl',
  'claude/SWORDIntel-claude-backups-v1.0.89-sidechain-thinking.jsonl',
  'codex/Fegor-Basic-Rootkit-v0.40.0.jsonl',
  'codex/ADIOCLASSMATE-dotfile-v0.142.5-desktop.jsonl',
];
