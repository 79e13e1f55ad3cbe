// One pass over a Codex rollout's records, in file order, into a pi v3 session (see index.ts for
// what maps to what and why).
import { problem } from '../../read/problems.ts';
import type { Problem } from '../../schema/types.ts';
import { contentParts, isContextText, isObj, textSignature, thinkingPart, type UserPart, userShellCommand } from './parts.ts';
import { CALL_TYPES, callIdOf, OUTPUT_TYPES, toolCallPart, toolOutput, webSearchText } from './tools.ts';
import { cwdFromContext } from './legacy.ts';
import type { CodexRecord } from './records.ts';
import { TokenCounter } from './usage.ts';
import { type Model, SessionWriter } from './writer.ts';

type Obj = Record<string, unknown>;

// Codex `effort` → pi thinking level (session-format.md §2.4); Codex's "none" is pi's "off".
const LEVELS: Record<string, string> = { none: 'off', minimal: 'minimal', low: 'low', medium: 'medium', high: 'high', xhigh: 'xhigh' };

/** pi's names for the provider and API that served a Codex model (`model_provider` "openai" → pi's `openai`, Responses API). */
export function piModel(provider: unknown, model: string): Model {
  const p = typeof provider === 'string' && provider ? provider : 'openai';
  return { api: p === 'azure' ? 'azure-openai-responses' : 'openai-responses', provider: p === 'azure' ? 'azure-openai-responses' : p, model };
}

/** Text of a message's items for a compaction summary. */
function transcript(history: unknown): string {
  if (!Array.isArray(history)) return '';
  const lines: string[] = [];
  for (const item of history) {
    if (!isObj(item) || item.type !== 'message') continue;
    const text = contentParts(item.content)
      .map((p) => (p.type === 'text' ? p.text : '[image]'))
      .filter((t) => !isContextText(t))
      .join('\n');
    if (text.trim()) lines.push(`${item.role === 'assistant' ? 'Assistant' : 'User'}: ${text}`);
  }
  return lines.join('\n\n');
}

/**
 * The session a rollout came from, as Codex names it: a spawned agent's parent thread
 * (`source.subagent.thread_spawn.parent_thread_id`, or `parent_thread_id` on the meta), else the
 * session it was forked or resumed from (`forked_from_id`). A session id, as omp writes `parentSession`.
 */
export function parentOf(meta: Obj): string | null {
  const spawn = isObj(meta.source) && isObj(meta.source.subagent) && isObj(meta.source.subagent.thread_spawn) ? meta.source.subagent.thread_spawn : null;
  for (const id of [spawn?.parent_thread_id, meta.parent_thread_id, meta.forked_from_id]) if (typeof id === 'string' && id) return id;
  return null;
}

/** A bare-era session's cwd (its meta has none): the first `<environment_context>`'s. */
function contextCwd(records: CodexRecord[]): string {
  for (const r of records) {
    if (r.type !== 'response_item' || r.payload.type !== 'message') continue;
    for (const p of contentParts(r.payload.content)) {
      const cwd = p.type === 'text' ? cwdFromContext(p.text) : null;
      if (cwd) return cwd;
    }
  }
  return '';
}

export interface Converting {
  header: Obj;
  lines: string[];
}

/** Converts the records (the first `session_meta` gives the header). */
export function convertRecords(records: CodexRecord[], problems: Problem[], fileName: string): Converting {
  const metaRecord = records.find((r) => r.type === 'session_meta');
  const meta = metaRecord?.payload ?? {};
  const first = records[0];
  if (!metaRecord) problems.push(problem(first?.line ?? 1, 'no-header', 'no session_meta record: session id and folder are unknown'));
  const sessionId = typeof meta.id === 'string' && meta.id ? meta.id : `codex-${fileName}`;
  const startedAt = typeof meta.timestamp === 'string' ? meta.timestamp : (metaRecord?.timestamp ?? first?.timestamp ?? '');
  const header: Obj = { type: 'session', version: 3, id: sessionId, timestamp: startedAt, cwd: typeof meta.cwd === 'string' ? meta.cwd : contextCwd(records) };
  const parent = parentOf(meta);
  if (parent) header.parentSession = parent;

  const w = new SessionWriter(sessionId);
  const tokens = new TokenCounter();
  const names = new Map<string, { id: string; name: string }>();
  // The model of responses before the first turn_context (older Codex writes it after the user message).
  const firstContext = records.find((r) => r.type === 'turn_context' && typeof r.payload.model === 'string');
  let model = piModel(meta.model_provider, typeof firstContext?.payload.model === 'string' ? firstContext.payload.model : 'unknown');
  let modelSet = '';
  let level = '';

  for (const r of records) {
    const ts = r.timestamp || startedAt;
    const p = r.payload;
    if (r.type === 'turn_context') {
      let k = 0;
      if (typeof p.model === 'string' && p.model !== modelSet) {
        modelSet = p.model;
        model = piModel(meta.model_provider, p.model);
        w.entry(r.line, k++, ts, 'model_change', { provider: model.provider, modelId: model.model });
      }
      const effort = typeof p.effort === 'string' ? (LEVELS[p.effort] ?? p.effort) : '';
      if (effort && effort !== level) {
        level = effort;
        w.entry(r.line, k++, ts, 'thinking_level_change', { thinkingLevel: effort });
      }
      w.close();
    } else if (r.type === 'response_item') {
      responseItem(r, ts);
    } else if (r.type === 'event_msg') {
      if (p.type === 'token_count') {
        const u = tokens.next(p);
        if (u) w.usage(u);
      } else if (p.type === 'turn_aborted') {
        w.entry(r.line, 0, ts, 'custom_message', { customType: 'codex.notice', content: `Turn interrupted (${String(p.reason ?? 'aborted')})`, display: true });
      } else if (p.type === 'error' || p.type === 'stream_error') {
        const kind = p.type === 'error' ? 'error' : 'notice';
        w.entry(r.line, 0, ts, 'custom_message', { customType: `codex.${kind}`, content: String(p.message ?? p.type), display: true });
      }
      // user_message / agent_message / agent_reasoning repeat response items; *_end events repeat tool outputs.
    } else if (r.type === 'compacted') {
      const message = typeof p.message === 'string' ? p.message : '';
      const kept = transcript(p.replacement_history);
      const summary = message.trim() ? message : kept ? `Codex compacted the conversation. What it kept:\n\n${kept}` : 'Codex compacted the conversation.';
      const id = w.entry(r.line, 0, ts, 'compaction', { summary, firstKeptEntryId: '', tokensBefore: tokens.contextTokens });
      // Nothing before the compaction is kept verbatim: Codex replaces the whole history.
      const e = w.entries[w.entries.length - 1];
      e.firstKeptEntryId = id;
    }
    // session_meta (header, or a repeat on resume) and unknown record types add no entry.
  }

  function responseItem(r: CodexRecord, ts: string): void {
    const p = r.payload;
    const type = p.type;
    if (type === 'message') {
      const parts = contentParts(p.content);
      if (p.role === 'assistant') {
        const sig = textSignature(p.id, p.phase);
        for (const part of parts) {
          if (part.type !== 'text') continue;
          w.part(r.line, ts, model, sig ? { ...part, textSignature: sig } : part);
        }
        return;
      }
      if (p.role === 'user') {
        const context = parts.filter((x) => x.type === 'text' && isContextText(x.text));
        const own: UserPart[] = parts.filter((x) => !(x.type === 'text' && isContextText(x.text)));
        // A command the user ran (`!cmd`) is pi's bashExecution; Codex's other context stays out of it.
        const shells = context.map((x) => (x.type === 'text' ? userShellCommand(x.text) : null));
        const rest = context.filter((_, i) => !shells[i]);
        let k = 0;
        if (rest.length) w.entry(r.line, k++, ts, 'custom', { customType: 'codex.context', data: { role: 'user', content: rest } });
        for (const sh of shells) {
          if (!sh) continue;
          const message = {
            role: 'bashExecution',
            command: sh.command,
            output: sh.output,
            exitCode: sh.exitCode,
            cancelled: false,
            truncated: false,
            timestamp: Date.parse(ts) || 0,
          };
          w.entry(r.line, k++, ts, 'message', { message });
        }
        if (own.length) w.user(r.line, k, ts, own);
        return;
      }
      w.entry(r.line, 0, ts, 'custom', { customType: 'codex.instructions', data: { role: String(p.role ?? 'developer'), content: parts } });
      return;
    }
    if (type === 'reasoning') {
      w.part(r.line, ts, model, thinkingPart(p));
      return;
    }
    if (typeof type === 'string' && CALL_TYPES.has(type)) {
      const call = toolCallPart(p, r.line);
      names.set(callIdOf(p, r.line), { id: call.id, name: call.name });
      w.part(r.line, ts, model, call);
      // A web search runs on the server and has no output item: its action is its result.
      if (type === 'web_search_call') w.toolResult(r.line, 1, ts, call.id, call.name, [{ type: 'text', text: webSearchText(p) }], p.status === 'failed');
      return;
    }
    if (typeof type === 'string' && OUTPUT_TYPES.has(type)) {
      const callId = typeof p.call_id === 'string' ? p.call_id : '';
      const call = names.get(callId) ?? { id: callId, name: 'unknown' };
      const { content, isError } = toolOutput(p);
      w.toolResult(r.line, 0, ts, call.id, call.name, content, isError);
      return;
    }
    // Other items (ghost snapshots, encrypted compaction items…) are kept, out of the model context.
    w.entry(r.line, 0, ts, 'custom', { customType: `codex.${typeof type === 'string' ? type : 'item'}`, data: p });
  }

  return { header, lines: w.lines() };
}
