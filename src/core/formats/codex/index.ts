// Codex CLI rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl; `.jsonl.zst` is unpacked by the
// worker first) → a pi v3 session. Codex is linear: each entry's parent is the previous one. Ids are
// hashed from the session id and the source line, so a file converts to the same bytes every time
// and lines appended to it leave the earlier entries as they were (all but the last response, which
// may still grow and take its usage).
//
// What maps to what:
// - session_meta → the header (id, timestamp, cwd); a spawned agent's `parentSession` is its
//   parent's thread id (`source.subagent.thread_spawn.parent_thread_id`, a session id as omp writes).
// - turn_context → `model_change` / `thinking_level_change` when the model or effort changes.
// - response_item message: user → pi user message; assistant → text parts (with pi's
//   openai-responses `textSignature`); the parts Codex adds itself (environment, AGENTS.md,
//   `<turn_aborted>` markers) → a `custom` entry `codex.context`, and developer/system messages →
//   `codex.instructions`: pi brings its own system prompt, AGENTS.md and environment when it
//   continues, so replaying Codex's would repeat or contradict them; kept, out of the context.
// - reasoning → a thinking part holding the item JSON as `thinkingSignature` (as pi does).
// - one response's reasoning, text and tool calls → one assistant message; each output (function,
//   custom/apply_patch, local shell, tool search) → a `toolResult`, paired by call id; a web search
//   (server-side, no output item) gets a result saying what it searched or opened.
// - event_msg token_count → the usage of its response, each counted once; turn_aborted and error
//   events → notices; user_message / agent_message / *_end events repeat items and add nothing.
// - compacted → a `compaction` whose summary is Codex's message (or, for a remote compaction, the
//   messages it kept), keeping nothing before it verbatim (Codex replaces the whole history).
import type { ConvertOptions, Converted } from '../types.ts';
import { convertRecords } from './convert.ts';
import { isBareMeta, isStateLine, ITEM_TYPES } from './legacy.ts';
import { readRecords } from './records.ts';

const KINDS = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

/**
 * True when these first records are a Codex rollout's: `{timestamp, type, payload}` envelopes of
 * Codex's kinds, with a `session_meta` whose payload has an id among them, or (its line lost) at
 * least three such envelopes and nothing else. pi, omp and Claude Code never write these kinds.
 */
export function looksLikeCodex(records: Record<string, unknown>[]): boolean {
  const envelope = (r: Record<string, unknown>) => typeof r.type === 'string' && KINDS.has(r.type) && typeof r.payload === 'object' && r.payload !== null;
  const known = records.filter(envelope);
  const meta = known.find((r) => r.type === 'session_meta');
  if (meta && typeof (meta.payload as Record<string, unknown>).id === 'string') return known.length * 2 > records.length;
  if (known.length >= 3 && known.length === records.length && known.every((r) => typeof r.timestamp === 'string')) return true;
  // The bare era: the session line, then bare response items and state lines only.
  const [head, ...rest] = records;
  return !!head && isBareMeta(head) && rest.every((r) => isStateLine(r) || (typeof r.type === 'string' && ITEM_TYPES.has(r.type) && !('payload' in r)));
}

export function codexToPi(bytes: Uint8Array, options: ConvertOptions): Converted {
  const problems: Converted['problems'] = [];
  const records = readRecords(bytes, problems);
  const { header, lines } = convertRecords(records, problems, options.file ?? 'rollout');
  return { format: 'codex', text: `${JSON.stringify(header)}\n${lines.join('')}`, problems };
}

export { codexSpawns } from './subagents.ts';
