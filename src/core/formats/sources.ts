// What the app needs to know about another agent's file before (or beside) its conversion: the
// id the agent gave the session, and the parent a child names. Read from the first records, which
// is where both agents write these facts (Claude Code: every record's sessionId and agentId; Codex:
// the session_meta line, whose source names the parent thread of a spawned child).
import { detectFormat, type SourceFormat } from './index.ts';

/** The ids a file carries in its first records. */
export interface SourceIds {
  format: SourceFormat;
  /** Claude Code's sessionId, Codex's session_meta id. */
  sessionId: string | null;
  /** Claude Code's agentId of a subagent transcript (its records are sidechain records). */
  agentId: string | null;
  /** Codex: the thread that spawned this one (session_meta source.subagent.thread_spawn.parent_thread_id). */
  parentThreadId: string | null;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | null => (typeof x === 'string' && x !== '' ? x : null);

/** The ids in a file's first bytes (64 KiB is plenty; a torn last line is skipped). */
export function sourceIds(head: Uint8Array): SourceIds {
  const format = detectFormat(head);
  const out: SourceIds = { format, sessionId: null, agentId: null, parentThreadId: null };
  if (format === 'pi') return out;
  const lines = new TextDecoder().decode(head).split('\n').slice(0, 16);
  for (const line of lines) {
    if (!line.trim()) continue;
    let r: unknown;
    try {
      r = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(r)) continue;
    if (format === 'codex' && r.type === 'session_meta' && isObject(r.payload)) {
      out.sessionId ??= str(r.payload.id);
      const source = r.payload.source;
      const spawn = isObject(source) && isObject(source.subagent) ? source.subagent.thread_spawn : null;
      if (isObject(spawn)) out.parentThreadId ??= str(spawn.parent_thread_id);
    }
    if (format === 'claude-code') {
      out.sessionId ??= str(r.sessionId);
      if (r.isSidechain === true) out.agentId ??= str(r.agentId);
    }
  }
  return out;
}

/** Where Claude Code keeps a subagent transcript: `<project>/<session uuid>/subagents/agent-<agentId>.jsonl`. */
const CLAUDE_SUBAGENT = /^(.+)\/subagents\/agent-([^/]+)\.jsonl$/;

/** A Claude Code subagent's path: the parent's path without `.jsonl` (the folder it sits in) and the agent id; null for any other path. */
export function claudeSubagentPlace(path: string): { parentStem: string; name: string } | null {
  const m = CLAUDE_SUBAGENT.exec(path.replace(/\\/g, '/'));
  return m ? { parentStem: m[1], name: m[2] } : null;
}
