// What pi 0.73.1 would send for a session file: its SessionManager, buildSessionContext and
// convertToLlm, with §0's rules where ours differ from pi's (an aborted or failed turn with text is
// sent as it is; the compaction summary lists the attachments it summarized away), sent through the
// same pi-ai provider to the replay server so the two requests are compared as the provider sees them.
import { writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getModel, type Message, streamSimple } from '@mariozechner/pi-ai';
import { buildSessionContext, convertToLlm, SessionManager } from '@mariozechner/pi-coding-agent';
import { historyTools, SYSTEM_PROMPT } from '../../src/worker/host/request.ts';
import type { ReplayServer } from './replay-server.ts';

interface Attachment {
  name: string;
  mimeType: string;
  path: string;
  about: string;
}

/** The file opened by pi: its session manager, and the ids of its branch to the leaf. */
export function openInPi(text: string) {
  const path = join(mkdtempSync(join(tmpdir(), 'rho-pi-')), 'session.jsonl');
  writeFileSync(path, text);
  const pi = SessionManager.open(path);
  return { pi, branch: new Set(pi.getBranch().map((e) => e.id)) };
}

/** pi's messages for the model at entry `at` of the file, §0's rules applied. */
export function piMessagesAt(pi: SessionManager, at: string): Message[] {
  const branch = pi.getBranch(at);
  const c = branch.findLastIndex((e) => e.type === 'compaction');
  const kept = c < 0 ? -1 : branch.findIndex((e) => e.id === (branch[c] as { firstKeptEntryId?: string }).firstKeptEntryId);
  const away: Attachment[] = [];
  for (const e of c < 0 ? [] : branch.slice(0, kept < 0 ? c : kept)) {
    const m = (e as { message?: { role?: string; attachments?: Attachment[] } }).message;
    if (e.type === 'message' && m?.role === 'user') away.push(...(m.attachments ?? []));
  }
  const list = away.length
    ? `\n\nAttachments from the summarized conversation:\n${away.map((a) => `- ${a.name} (${a.mimeType}) at ${a.path}: ${a.about}`).join('\n')}`
    : '';
  const ctx = buildSessionContext(pi.getEntries(), at);
  return (convertToLlm(ctx.messages) as Message[]).map((m) => {
    if (m.role === 'assistant' && (m.stopReason === 'aborted' || m.stopReason === 'error')) return { ...m, stopReason: 'stop' as const };
    if (
      m.role === 'user' &&
      Array.isArray(m.content) &&
      m.content[0]?.type === 'text' &&
      m.content[0].text.startsWith('The conversation history before this point')
    )
      return { ...m, content: [{ type: 'text' as const, text: m.content[0].text + list }] };
    return m;
  });
}

/** The body pi-ai sends Anthropic's Messages API for `messages` with our system prompt (received by `server`). */
export async function piAnthropicRequest(server: ReplayServer, messages: Message[], modelId = 'claude-sonnet-4-5') {
  server.script({ kind: 'reply', reply: { text: ['pi'] } });
  const model = { ...getModel('anthropic', modelId as 'claude-sonnet-4-5'), baseUrl: server.baseUrl('anthropic') };
  const tools = historyTools(messages);
  await streamSimple(model, { systemPrompt: SYSTEM_PROMPT, messages, ...(tools.length ? { tools } : {}) }, { apiKey: 'sk-pi' }).result();
  return server.received.at(-1)!.body;
}

/** The entries appended after `original` (the file as it was before the continuation). */
export function appendedEntries(text: string, original: string): any[] {
  return text
    .slice(original.length)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

/** An entry's type, and its message's role. */
export const kindOf = (e: { type: string; message?: { role: string } }) => e.type + (e.message ? `:${e.message.role}` : '');

/**
 * What the continuation both pi-agrees tests make writes, in order: a photo and its reply, notes and a
 * stopped reply, notes and a failed reply with its notice, another model and its reply, a compaction,
 * the first model again and its reply.
 */
export const CONTINUED_KINDS = [
  'model_change',
  'message:user',
  'message:assistant',
  'message:user',
  'message:assistant',
  'message:user',
  'message:assistant',
  'custom_message',
  'model_change',
  'message:user',
  'message:assistant',
  'compaction',
  'model_change',
  'message:user',
  'message:assistant',
];
