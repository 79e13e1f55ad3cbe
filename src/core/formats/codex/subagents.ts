// Codex sub-agents: the parent calls `spawn_agent`, whose output names the child's thread id
// (`{"agent_id": "<id>"}`); the child's session_meta names the parent (`parent_thread_id`, which
// the converted header carries as `parentSession`). This finds, in a converted parent, the entry
// and tool call that started each child, for the app to link them as it links pi's subagents.
import type { Entry } from '../../schema/types.ts';

export interface CodexSpawn {
  /** The child's session id (its header id once converted). */
  childId: string;
  /** The parent's assistant entry holding the `spawn_agent` call. */
  entryId: string;
  toolCallId: string;
}

/** Every `spawn_agent` call with a child id in its result, in order. */
export function codexSpawns(entries: readonly Entry[]): CodexSpawn[] {
  const callers = new Map<string, string>();
  const out: CodexSpawn[] = [];
  for (const e of entries) {
    if (e.type !== 'message' || typeof e.id !== 'string') continue;
    const m = (e as { message?: Record<string, unknown> }).message;
    if (!m) continue;
    if (m.role === 'assistant' && Array.isArray(m.content)) {
      for (const c of m.content as Record<string, unknown>[]) {
        if (c?.type === 'toolCall' && c.name === 'spawn_agent' && typeof c.id === 'string') callers.set(c.id, e.id);
      }
    } else if (m.role === 'toolResult' && typeof m.toolCallId === 'string' && callers.has(m.toolCallId)) {
      const text = Array.isArray(m.content) ? (m.content as Record<string, unknown>[]).map((c) => (typeof c?.text === 'string' ? c.text : '')).join('') : '';
      const id = /"agent_id"\s*:\s*"([^"]+)"/.exec(text)?.[1];
      if (id) out.push({ childId: id, entryId: callers.get(m.toolCallId) as string, toolCallId: m.toolCallId });
    }
  }
  return out;
}
