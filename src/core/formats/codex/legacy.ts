// Codex's first rollouts (codex-cli until about September 2025) had no envelopes: line 1 is the
// session's `{id, timestamp, instructions, git}`, then bare response items (`{"type":"message",…}`)
// and `{"record_type":"state"}` bookkeeping lines, with no per-line timestamps and no cwd (it is in
// the first `<environment_context>`). Later files still carry the state lines. These read here as
// the enveloped records they stand for.

type Obj = Record<string, unknown>;

/** Response item types a bare-era line can hold. */
export const ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'web_search_call',
  'tool_search_call',
  'tool_search_output',
]);

/** A bare-era first line: the session's id and start, no `type`. */
export function isBareMeta(r: Obj): boolean {
  return !('type' in r) && typeof r.id === 'string' && typeof r.timestamp === 'string' && ('instructions' in r || 'git' in r);
}

/** `{"record_type": …}` bookkeeping: no content. */
export function isStateLine(r: Obj): boolean {
  return !('type' in r) && typeof r.record_type === 'string';
}

/** The enveloped record a bare-era line stands for, or null when it is not one. */
export function envelope(r: Obj, first: boolean): { type: string; payload: Obj } | null {
  if (first && isBareMeta(r)) return { type: 'session_meta', payload: r };
  if (typeof r.type === 'string' && ITEM_TYPES.has(r.type) && !('payload' in r)) return { type: 'response_item', payload: r };
  return null;
}

/** The cwd a bare-era session ran in, from the first `<environment_context>`'s `<cwd>`. */
export function cwdFromContext(text: string): string | null {
  const m = /<environment_context>[\s\S]*?<cwd>([^<]*)<\/cwd>/.exec(text);
  return m ? m[1].trim() : null;
}
