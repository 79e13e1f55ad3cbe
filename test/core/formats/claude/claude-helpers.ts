// What the Claude adapter's tests derive from the source lines on their own (never through the
// adapter): the active path, the usage once per API response, and what pi builds from the
// converted text (its own SessionManager and buildSessionContext, on a temp copy).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSessionContext, SessionManager } from '@mariozechner/pi-coding-agent';

type Any = Record<string, any>;

/** The source's JSON lines (bad ones skipped). */
export function sourceLines(text: string): Any[] {
  const out: Any[] = [];
  for (const l of text.split('\n')) {
    try {
      const v = JSON.parse(l);
      if (v && typeof v === 'object' && !Array.isArray(v)) out.push(v);
    } catch {
      // bad lines are the adapter's problems, not the expectation's
    }
  }
  return out;
}

/** The active path as Claude's own tree says: leaf = the last uuid line of the main chain (any chain in a subagent file), walk parentUuid. */
export function activePath(lines: Any[]): Any[] {
  const withUuid = lines.filter((r) => typeof r.uuid === 'string');
  const main = withUuid.filter((r) => r.isSidechain !== true);
  const byUuid = new Map(withUuid.map((r) => [r.uuid, r]));
  const path: Any[] = [];
  const seen = new Set<string>();
  let cur = (main.length ? main : withUuid).at(-1);
  while (cur && !seen.has(cur.uuid)) {
    seen.add(cur.uuid);
    path.push(cur);
    cur = typeof cur.parentUuid === 'string' ? byUuid.get(cur.parentUuid) : undefined;
  }
  return path.reverse();
}

/** What each message of the path must leave in pi's context: prompts' text, responses' ids and tool calls, tool results' call ids, meta prompts. */
export interface Expected {
  prompts: string[];
  responses: string[];
  toolCalls: string[];
  toolResults: string[];
  meta: string[];
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b) => b?.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

export function expectedOf(path: Any[]): Expected {
  const e: Expected = { prompts: [], responses: [], toolCalls: [], toolResults: [], meta: [] };
  for (const r of path) {
    const content = r.message?.content;
    if (r.type === 'assistant' && r.isApiErrorMessage !== true) {
      e.responses.push(r.message.id);
      for (const b of Array.isArray(content) ? content : []) if (b.type === 'tool_use') e.toolCalls.push(b.id);
    }
    if (r.type !== 'user' || r.isCompactSummary) continue;
    const blocks = Array.isArray(content) ? content : [];
    for (const b of blocks) if (b.type === 'tool_result') e.toolResults.push(b.tool_use_id);
    const rest = typeof content === 'string' ? content : text(blocks.filter((b) => b.type !== 'tool_result'));
    if (!rest) continue;
    if (r.isMeta) e.meta.push(rest);
    else e.prompts.push(rest);
  }
  return e;
}

const tmp = mkdtempSync(join(tmpdir(), 'claude-pi-'));
let n = 0;

/** Opens the converted text with pi's SessionManager (a temp copy) and builds its context; also returns pi's branch. */
export function piContext(converted: string): { messages: Any[]; branch: Any[]; leafId: string | null } {
  // Made again if a test file's cleanup removed it (test files may share this module).
  mkdirSync(tmp, { recursive: true });
  const file = join(tmp, `s${n++}.jsonl`);
  writeFileSync(file, converted);
  const sm = SessionManager.open(file);
  const leafId = sm.getLeafId();
  const { messages } = buildSessionContext(sm.getEntries(), leafId);
  return { messages: messages as Any[], branch: sm.getBranch() as Any[], leafId };
}

export function cleanTmp(): void {
  rmSync(tmp, { recursive: true, force: true });
}

/** What pi's context holds, in the same terms as `Expected`. */
export function heldBy(messages: Any[]): Expected {
  const e: Expected = { prompts: [], responses: [], toolCalls: [], toolResults: [], meta: [] };
  for (const m of messages) {
    if (m.role === 'user') e.prompts.push(text(m.content));
    if (m.role === 'custom') e.meta.push(text(m.content));
    if (m.role === 'toolResult') e.toolResults.push(m.toolCallId);
    if (m.role === 'assistant') {
      if (m.responseId) e.responses.push(m.responseId);
      for (const p of m.content) if (p.type === 'toolCall') e.toolCalls.push(p.id);
    }
  }
  return e;
}

const BUCKETS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const;

/** Tokens counted once per API response (message.id + requestId; each bucket's largest value), straight from the source. */
export function sourceTokens(lines: Any[]): { input: number; output: number; cacheRead: number; cacheWrite: number; responses: number } {
  const byKey = new Map<string, Record<string, number>>();
  for (const r of lines) {
    if (r.type !== 'assistant' || !r.message?.usage) continue;
    const key = `${r.message.id ?? r.uuid}|${r.requestId ?? ''}`;
    const acc = byKey.get(key) ?? {};
    for (const b of BUCKETS) acc[b] = Math.max(acc[b] ?? 0, r.message.usage[b] ?? 0);
    byKey.set(key, acc);
  }
  const t = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, responses: byKey.size };
  for (const u of byKey.values()) {
    t.input += u.input_tokens ?? 0;
    t.output += u.output_tokens ?? 0;
    t.cacheRead += u.cache_read_input_tokens ?? 0;
    t.cacheWrite += u.cache_creation_input_tokens ?? 0;
  }
  return t;
}
