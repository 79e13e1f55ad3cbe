// Subagent transcripts as pi and omp lay them out beside their parent session (the parent's file
// name without `.jsonl` becomes a folder): omp's task tool writes `<session>/<AgentId>.jsonl`, pi's
// subagent extension writes `<session>/<runId>/run-<n>/session.jsonl`. A fork names the session it
// came from in its header instead. Pure: paths and entries in, places and links out.
import type { Entry } from '../schema/types.ts';

/** Where a subagent transcript sits relative to its parent, read from its path. */
export interface SubagentPlace {
  layout: 'omp' | 'pi-run';
  /** The parent's path without `.jsonl` (the folder the child sits in). */
  parentStem: string;
  /** omp: the agent id (the file name); pi: the run folder's id. */
  name: string;
  /** pi: the run number (`run-<n>`). */
  run?: number;
}

/** What a child's index record says about its parent: the link key is the entry (and tool call) that started it. */
export interface SubagentLink {
  /** omp's and pi's layouts (subagentPlace); Claude Code's `<session>/subagents/agent-<id>.jsonl`; a Codex child (its session_meta names the parent thread). */
  layout: 'omp' | 'pi-run' | 'claude' | 'codex';
  name: string;
  run?: number;
  /** The parent's entry that started the run (a custom message or the assistant turn with the tool call). */
  entryId?: string;
  /** The tool call that started it (omp's task tool), when it was a tool call. */
  toolCallId?: string;
}

const PI_RUN = /^(.+)\/([^/]+)\/run-(\d+)\/session\.jsonl$/;
const OMP_CHILD = /^(.+)\/([^/]+)\.jsonl$/;
// pi and omp name a session file `<ISO timestamp with : and . as ->_<session id>.jsonl`.
const SESSION_STEM = /(?:^|\/)\d{4}-\d\d-\d\dT[\d-]+Z?_([^/]+)$/;

/** The header id a parent folder's name carries (`2026-05-26T05-30-28-297Z_<id>`), or null. */
export function parentIdFromStem(stem: string): string | null {
  return SESSION_STEM.exec(stem)?.[1] ?? null;
}

/**
 * The session id a fork's header names as the session it came from (`parentSession`, §header): pi
 * writes the parent's file path (`…/<timestamp>_<id>.jsonl`), omp a session id. Null when absent.
 */
export function forkedFrom(parentSession: unknown): string | null {
  if (typeof parentSession !== 'string' || parentSession.trim() === '') return null;
  const name = parentSession.trim().replace(/\\/g, '/').split('/').pop() ?? '';
  if (!name.endsWith('.jsonl')) return name || null;
  const stem = name.slice(0, -'.jsonl'.length);
  return parentIdFromStem(stem) ?? (stem || null);
}

/**
 * Where `path` sits as a subagent transcript, or null. `siblings` holds every path of the same
 * import or folder: a child is recognised when its parent's file is among them, or when the folder
 * it sits in is named like a session file (the parent may be stored already).
 */
export function subagentPlace(path: string, siblings: ReadonlySet<string>): SubagentPlace | null {
  const clean = path.replace(/\\/g, '/');
  const isParent = (stem: string) => siblings.has(`${stem}.jsonl`) || parentIdFromStem(stem) !== null;
  const run = PI_RUN.exec(clean);
  if (run && isParent(run[1])) return { layout: 'pi-run', parentStem: run[1], name: run[2], run: Number(run[3]) };
  const omp = OMP_CHILD.exec(clean);
  if (omp && isParent(omp[1])) return { layout: 'omp', parentStem: omp[1], name: omp[2] };
  return null;
}

/** The path a child takes beside its parent's file (`parentFile` ends in `.jsonl`): the layout it came in. */
export function subagentPath(parentFile: string, link: Pick<SubagentLink, 'layout' | 'name' | 'run'>): string {
  const stem = parentFile.replace(/\.jsonl$/, '');
  const name = link.name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '-') || 'agent';
  if (link.layout === 'claude') return `${stem}/subagents/agent-${name}.jsonl`;
  // A Codex child sits beside its parent's rollout (it names its parent itself).
  if (link.layout === 'codex') return `${stem.replace(/[^/]*$/, '')}rollout-${name}.jsonl`;
  return link.layout === 'pi-run' ? `${stem}/${name}/run-${link.run ?? 0}/session.jsonl` : `${stem}/${name}.jsonl`;
}

interface ToolCallPart {
  type: 'toolCall';
  id: string;
  name?: string;
}

function toolCallsOf(entry: Entry): ToolCallPart[] {
  const message = entry.message as { role?: string; content?: unknown } | undefined;
  if (entry.type !== 'message' || message?.role !== 'assistant' || !Array.isArray(message.content)) return [];
  return message.content.filter((p): p is ToolCallPart => (p as { type?: string })?.type === 'toolCall' && typeof (p as { id?: unknown }).id === 'string');
}

// Whether a JSON value holds `needle` as a whole string somewhere (iterative: details can nest deep).
function mentions(value: unknown, needle: string): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v === needle || v.includes(`/${needle}/`) || v.endsWith(`/${needle}.jsonl`)) return true;
    } else if (v && typeof v === 'object') for (const x of Object.values(v as object)) stack.push(x);
  }
  return false;
}

const STARTER_TOOL = /task|agent/i;
const STARTER_CUSTOM = /subagent|agent|task/i;

/** The entry of a turn holding a tool call. */
function callEntry(entries: readonly Entry[], toolCallId: string): Entry | undefined {
  return entries.find((e) => toolCallsOf(e).some((c) => c.id === toolCallId));
}

/** For a custom message: the first of its request (pi's subagent extension posts "Running…" then the result under one requestId). */
function firstOfRequest(entries: readonly Entry[], found: Entry): Entry {
  const requestId = (found.details as { requestId?: unknown } | undefined)?.requestId;
  if (typeof requestId !== 'string') return found;
  return entries.find((e) => e.type === 'custom_message' && (e.details as { requestId?: unknown } | undefined)?.requestId === requestId) ?? found;
}

/**
 * The parent's entry that started a subagent run: the tool result or custom message that names the
 * run (omp's task results name the agent id, pi's carry the runId), traced back to the call or the
 * first message of its request; else the last subagent-starting entry (a task/agent tool call or a
 * subagent custom message) at or before the child's start. Null when nothing fits.
 */
export function findSubagentStart(entries: readonly Entry[], child: { name: string; started?: string }): Pick<SubagentLink, 'entryId' | 'toolCallId'> | null {
  for (const e of entries) {
    if (e.type === 'message') {
      const m = e.message as { role?: string; toolCallId?: unknown; details?: unknown } | undefined;
      if (m?.role === 'toolResult' && typeof m.toolCallId === 'string' && mentions(m.details, child.name)) {
        const call = callEntry(entries, m.toolCallId);
        return { entryId: call?.id ?? e.id, toolCallId: m.toolCallId };
      }
    } else if (e.type === 'custom_message' && mentions(e.details, child.name)) {
      return { entryId: firstOfRequest(entries, e).id };
    }
  }
  const started = child.started ? Date.parse(child.started) : Number.NaN;
  let best: Pick<SubagentLink, 'entryId' | 'toolCallId'> | null = null;
  for (const e of entries) {
    const at = e.timestamp ? Date.parse(e.timestamp) : Number.NaN;
    if (!Number.isNaN(started) && !(at <= started)) continue;
    const call = toolCallsOf(e).find((c) => STARTER_TOOL.test(c.name ?? ''));
    if (call) best = { entryId: e.id, toolCallId: call.id };
    else if (e.type === 'custom_message' && STARTER_CUSTOM.test(String(e.customType ?? ''))) best = { entryId: firstOfRequest(entries, e).id };
  }
  return best;
}
