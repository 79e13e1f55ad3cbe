// Telling a Claude Code transcript from its first records (never its name). Claude's conversation
// lines carry `uuid`, `parentUuid` and `sessionId`; its bookkeeping lines (queue operations, file
// history snapshots, permission modes, summaries) come first in many files and are recognised by
// their own shapes. A pi or omp record (a `session` header, entries with `parentId`) rules it out.

const BOOKKEEPING = new Set(['queue-operation', 'permission-mode', 'last-prompt', 'custom-title', 'pr-link', 'agent-name', 'tag']);

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** True when this one record is shaped like a Claude Code line. */
export function isClaudeRecord(r: Record<string, unknown>): boolean {
  if (typeof r.uuid === 'string' && 'parentUuid' in r && typeof r.sessionId === 'string') return true;
  if (r.type === 'summary') return typeof r.leafUuid === 'string' && typeof r.summary === 'string';
  if (r.type === 'file-history-snapshot') return typeof r.messageId === 'string' && isObject(r.snapshot);
  // Written first when a session from Claude Code on the web is carried to the terminal.
  if (r.type === 'teleported-from') return typeof r.remoteSessionId === 'string';
  return typeof r.type === 'string' && BOOKKEEPING.has(r.type) && typeof r.sessionId === 'string';
}

/** True when a record belongs to pi or omp (their header, an entry with `parentId`, omp's title slot). */
function isPiRecord(r: Record<string, unknown>): boolean {
  return r.type === 'session' || 'parentId' in r || (r.type === 'title' && r.v === 1);
}

// The start of a conversation line too long to parse within the head (a pasted image, a long paste).
const CLAUDE_LINE_START = /^\{"parentUuid":(?:null|"[^"]*"),"(?:logicalParentUuid|isSidechain)":/;

/**
 * True when these first records (parsed lines of the head) are Claude Code's: at least one is
 * Claude-shaped and none is pi's. `head`, when given, also recognises a file whose first line is
 * too long to be complete in the head.
 */
export function looksLikeClaude(records: Record<string, unknown>[], head?: Uint8Array): boolean {
  if (records.some(isPiRecord)) return false;
  if (records.some(isClaudeRecord)) return true;
  if (!head || records.length > 0) return false;
  const start = new TextDecoder().decode(head.subarray(0, 512));
  return CLAUDE_LINE_START.test(start);
}
