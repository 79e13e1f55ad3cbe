// Row flags of a branch (for filters and keyboard marks) and the pairing of a tool result with the
// assistant turn that made its call: every body of the branch read once, on first need.
import { isObject, str, type Loose } from './parts.ts';
import type { SessionSource } from './source.ts';

/** A user message. */
export const ROW_USER = 1;
/** A row with tool activity (a call, a result on its own, a shell command). */
export const ROW_TOOL = 2;
/** A failure: errored turn, failed tool, error notice, failed command. */
export const ROW_ERROR = 4;
/** An assistant row that says something beyond tool calls and thinking. */
export const ROW_PROSE = 8;
/** A row that only shows tool activity (tool result without its call, user shell command). */
export const ROW_TOOL_ONLY = 16;
/** An assistant turn. */
export const ROW_ASSISTANT = 32;
/** A tool result shown inside the row of its call (the row itself renders nothing). */
export const ROW_FOLDED = 64;

/** How far (in entries) a tool result is looked for after its call, and a call before its result. */
export const PAIR_REACH = 400;

/** Flags of every row of a branch, from one pass over its bodies. */
export interface BranchScan {
  flags: Uint8Array;
}

export function messageOf(entry: Loose): Loose | null {
  return entry.type === 'message' && isObject(entry.message) ? entry.message : null;
}

export function callIds(message: Loose): string[] {
  const content = Array.isArray(message.content) ? message.content : [];
  const ids: string[] = [];
  for (const part of content) if (isObject(part) && part.type === 'toolCall' && typeof part.id === 'string' && part.id) ids.push(part.id);
  return ids;
}

/**
 * The row of the call a tool result at `row` answers, or null when it stands alone. Pairing is
 * local: a result belongs to the nearest assistant message before it (no user or assistant
 * message in between) that made the call, unless an earlier result already answered it.
 */
export function ownerRow(source: SessionSource, branch: readonly number[], row: number): number | null {
  const message = messageOf(source.body(branch[row]));
  if (message?.role !== 'toolResult') return null;
  const callId = str(message.toolCallId);
  for (let r = row - 1; r >= 0 && r >= row - PAIR_REACH; r--) {
    const m = messageOf(source.body(branch[r]));
    if (!m) continue;
    if (m.role === 'toolResult') {
      if (str(m.toolCallId) === callId) return null;
      continue;
    }
    if (m.role === 'assistant') return callIds(m).includes(callId) ? r : null;
    if (m.role === 'user') return null;
  }
  return null;
}

function assistantFlags(message: Loose): number {
  let flags = ROW_ASSISTANT;
  const content = Array.isArray(message.content) ? message.content : [];
  for (const part of content) {
    if (!isObject(part)) continue;
    if (part.type === 'toolCall') flags |= ROW_TOOL;
    else if ((part.type === 'text' && typeof part.text === 'string' && part.text.trim()) || part.type === 'image') flags |= ROW_PROSE;
  }
  if (message.stopReason === 'error' || typeof message.errorMessage === 'string') flags |= ROW_ERROR | ROW_PROSE;
  if (typeof message.content === 'string' && message.content.trim()) flags |= ROW_PROSE;
  return flags;
}

/** Reads every body of a branch once and flags each row (for filters and keyboard marks). */
export function scanBranch(source: SessionSource, branch: readonly number[]): BranchScan {
  const flags = new Uint8Array(branch.length);
  let pending = new Map<string, number>();
  for (let row = 0; row < branch.length; row++) {
    const entry = source.body(branch[row]);
    const message = messageOf(entry);
    const role = message?.role;
    let f = 0;
    if (message && role === 'toolResult') {
      const owner = pending.get(str(message.toolCallId));
      if (owner !== undefined) {
        pending.delete(str(message.toolCallId));
        flags[row] = ROW_FOLDED;
        if (message.isError === true) flags[owner] |= ROW_ERROR;
        continue;
      }
      f = ROW_TOOL | ROW_TOOL_ONLY | (message.isError === true ? ROW_ERROR : 0);
    } else if (message && role === 'user') {
      f = ROW_USER;
      pending = new Map();
    } else if (message && role === 'assistant') {
      f = assistantFlags(message);
      pending = new Map();
      for (const id of callIds(message)) pending.set(id, row);
    } else if (message && (role === 'bashExecution' || role === 'pythonExecution')) {
      f = ROW_TOOL | ROW_TOOL_ONLY;
      if (typeof message.exitCode === 'number' && message.exitCode !== 0) f |= ROW_ERROR;
    } else if (entry.type === 'custom_message' && str(entry.customType).endsWith('.error')) f = ROW_ERROR;
    flags[row] = f;
  }
  return { flags };
}
