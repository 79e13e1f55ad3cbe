// Generated Claude Code transcripts (the shapes of Claude Code 1.0–2.1 as the real files in
// fixtures/other-agents/claude show them): every line type and content block the adapter reads, a
// branch from a prompt edit, a retried response, an inline sidechain under its Task call, a
// compaction, bookkeeping lines, and large files made on demand. Seeded: the same seed gives the
// same bytes.
import { createRng, type Rng } from './prng.ts';
import { base64Bytes, paragraph, sentence } from './text.ts';

type Line = Record<string, unknown>;

export const SESSION_ID = '7a1e6b0c-3f2d-4e5a-9b8c-0d1e2f3a4b5c';
const CWD = '/home/dev/project';

/** Writes Claude lines: uuids from the seed, a clock that moves a second a line, the envelope every line repeats. */
export class ClaudeWriter {
  readonly lines: Line[] = [];
  private clock = Date.UTC(2026, 3, 1, 9, 0, 0);
  constructor(
    readonly rng: Rng,
    private readonly extra: Line = {},
  ) {}

  uuid(): string {
    const h = this.rng.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  private now(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString();
  }

  /** A conversation line (has uuid/parentUuid); returns its uuid. */
  add(parentUuid: string | null, type: string, body: Line, sidechain = false): string {
    const uuid = this.uuid();
    this.lines.push({
      parentUuid,
      isSidechain: sidechain,
      ...this.extra,
      type,
      ...body,
      uuid,
      timestamp: this.now(),
      userType: 'external',
      entrypoint: 'cli',
      cwd: CWD,
      sessionId: SESSION_ID,
      version: '2.1.101',
      gitBranch: 'main',
    });
    return uuid;
  }

  /** A bookkeeping line (no uuid). */
  raw(line: Line): void {
    this.lines.push(line);
  }

  user(parent: string | null, content: unknown, more: Line = {}, sidechain = false): string {
    return this.add(parent, 'user', { message: { role: 'user', content }, ...more }, sidechain);
  }

  /** One API response written as one line per block (Claude's split), chained; returns the last line's uuid and the ids of its tool calls. */
  response(parent: string | null, blocks: Line[], opts: { stop?: string; sidechain?: boolean; output?: number } = {}): { last: string; uuids: string[] } {
    const id = `msg_${this.rng.hex(24)}`;
    const requestId = `req_${this.rng.hex(24)}`;
    const uuids: string[] = [];
    let p = parent;
    blocks.forEach((block, i) => {
      const final = i === blocks.length - 1;
      const usage = { input_tokens: 3, cache_creation_input_tokens: 120, cache_read_input_tokens: 4000, output_tokens: final ? (opts.output ?? 250) : 10 + i };
      const message = {
        model: 'claude-sonnet-4-6',
        id,
        type: 'message',
        role: 'assistant',
        content: [block],
        stop_reason: final ? (opts.stop ?? 'end_turn') : null,
        stop_sequence: null,
        usage,
      };
      p = this.add(p, 'assistant', { message, requestId }, opts.sidechain);
      uuids.push(p);
    });
    return { last: p as string, uuids };
  }

  toolResult(
    parent: string,
    toolUseId: string,
    content: unknown,
    more: { isError?: boolean; details?: unknown; source?: string; sidechain?: boolean } = {},
  ): string {
    const block: Line = { tool_use_id: toolUseId, type: 'tool_result', content };
    if (more.isError) block.is_error = true;
    const body: Line = { message: { role: 'user', content: [block] } };
    if (more.details !== undefined) body.toolUseResult = more.details;
    if (more.source) body.sourceToolAssistantUUID = more.source;
    return this.add(parent, 'user', body, more.sidechain);
  }

  text(): string {
    return this.lines.map((l) => `${JSON.stringify(l)}\n`).join('');
  }
}

function toolUse(rng: Rng, name: string, input: Line): Line {
  return { type: 'tool_use', id: `toolu_${rng.hex(24)}`, name, input };
}

function png(rng: Rng): Line {
  return { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64Bytes(rng, 96) } };
}

/** A transcript holding every line type and block type, a prompt-edit branch, a retried response, an inline sidechain and a compaction. */
export function claudeEveryType(seed = 1): string {
  const rng = createRng(seed);
  const w = new ClaudeWriter(rng);
  w.raw({ type: 'queue-operation', operation: 'enqueue', timestamp: '2026-04-01T09:00:00.000Z', sessionId: SESSION_ID, content: 'first prompt' });
  w.raw({ type: 'permission-mode', permissionMode: 'default', sessionId: SESSION_ID });
  w.raw({ type: 'summary', summary: 'Fixing the parser', leafUuid: 'ffffffff-0000-4000-a000-000000000000' });
  w.raw({
    type: 'file-history-snapshot',
    messageId: 'm1',
    snapshot: { messageId: 'm1', trackedFileBackups: {}, timestamp: '2026-04-01T09:00:00.500Z' },
    isSnapshotUpdate: false,
  });
  // A prompt with an image, an attachment line, a response with thinking, redacted thinking, text and two parallel tool calls.
  const p1 = w.user(null, [{ type: 'text', text: 'Look at this screenshot and fix the parser' }, png(rng)], { imagePasteIds: [1] });
  const att = w.add(p1, 'attachment', { attachment: { type: 'skill_listing', content: '- a skill', skillCount: 1 } });
  const read = toolUse(rng, 'Read', { file_path: '/home/dev/project/parser.ts' });
  const grep = toolUse(rng, 'Grep', { pattern: 'parse' });
  const r1 = w.response(
    att,
    [
      { type: 'thinking', thinking: 'The parser drops the last line.', signature: `sig-${rng.hex(16)}` },
      { type: 'redacted_thinking', data: `redacted-${rng.hex(16)}` },
      { type: 'text', text: 'Let me read the parser.' },
      read,
      grep,
    ],
    { stop: 'tool_use' },
  );
  // Claude's parallel results: the first hangs off its own call line, the second off the last line; hook progress between.
  const prog = w.add(r1.uuids[3] as string, 'progress', {
    data: { type: 'hook_progress', hookEvent: 'PreToolUse', hookName: 'PreToolUse:Read' },
    toolUseID: read.id,
    parentToolUseID: read.id,
  });
  const t1 = w.toolResult(prog, read.id as string, [{ type: 'text', text: 'export function parse() {}' }, png(rng)], {
    details: { type: 'text', file: { filePath: '/home/dev/project/parser.ts' } },
    source: r1.uuids[3],
  });
  const t2 = w.toolResult(t1, grep.id as string, 'grep: bad pattern', { isError: true, details: 'Error: grep: bad pattern', source: r1.last });
  const meta = w.user(t2, [{ type: 'text', text: 'Base directory for this skill: /skills/parse' }], { isMeta: true, sourceToolUseID: read.id });
  const r2 = w.response(meta, [{ type: 'text', text: 'Found it; the fix is one line.' }]);
  const sys = w.add(r2.last, 'system', { subtype: 'turn_duration', durationMs: 4200, messageCount: 9, isMeta: false });
  w.raw({ type: 'last-prompt', lastPrompt: 'Look at this screenshot', sessionId: SESSION_ID });
  // A prompt that runs a command, its output, an API error answer, then a retried one (a branch of two responses).
  const cmd = w.user(sys, '<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>');
  const out = w.user(cmd, '<local-command-stdout>Set model to claude-sonnet-4-6</local-command-stdout>');
  const p2 = w.user(out, 'Now write the test');
  const err = w.add(p2, 'assistant', {
    message: {
      id: w.uuid(),
      model: '<synthetic>',
      role: 'assistant',
      type: 'message',
      stop_reason: 'stop_sequence',
      usage: { input_tokens: 0, output_tokens: 0 },
      content: [{ type: 'text', text: 'API Error: Overloaded' }],
    },
    isApiErrorMessage: true,
    error: 'overloaded',
  });
  w.add(err, 'system', { subtype: 'api_error', level: 'error', content: 'Overloaded; retrying', isMeta: false });
  const task = toolUse(rng, 'Task', { description: 'Write tests', subagent_type: 'general-purpose', prompt: 'Write a test for parse()' });
  const r3 = w.response(p2, [{ type: 'text', text: 'I will ask a subagent.' }, task], { stop: 'tool_use' });
  // The subagent's conversation inline (Claude Code 1.0): a sidechain whose root has no parent.
  const s1 = w.user(null, 'Write a test for parse()', {}, true);
  const s2 = w.response(s1, [toolUse(rng, 'Write', { file_path: '/home/dev/project/parser.test.ts', content: 'test()' })], {
    stop: 'tool_use',
    sidechain: true,
  });
  const swrite = ((w.lines.at(-1) as Line).message as { content: Line[] }).content[0] as Line;
  const s3 = w.toolResult(s2.last, swrite.id as string, 'File written', { sidechain: true });
  w.response(s3, [{ type: 'text', text: 'Test written.' }], { sidechain: true });
  const tr = w.toolResult(r3.last, task.id as string, [{ type: 'text', text: 'Test written.' }], {
    details: { status: 'completed', agentId: 'a0b1c2d3e4f5a6b7c', content: [{ type: 'text', text: 'Test written.' }], totalTokens: 900 },
  });
  const r4 = w.response(tr, [{ type: 'text', text: 'The test passes.' }]);
  // The user edits their second prompt: a new prompt with the same parent (a branch), answered.
  const p2b = w.user(out, 'Now write the test, in vitest');
  const r5 = w.response(p2b, [{ type: 'text', text: 'Written with vitest.' }]);
  // A compaction: the boundary (no parent, a logical one) and its summary, then more turns.
  const cb = w.add(null, 'system', {
    subtype: 'compact_boundary',
    logicalParentUuid: r5.last,
    content: 'Conversation compacted',
    isMeta: false,
    level: 'info',
    compactMetadata: { trigger: 'auto', preTokens: 182356 },
  });
  const cs = w.user(cb, 'This session is being continued from a previous conversation. Summary: the parser was fixed and tested.', {
    isVisibleInTranscriptOnly: true,
    isCompactSummary: true,
  });
  const p3 = w.user(cs, [
    { type: 'text', text: 'Anything else?' },
    { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'spec.pdf' },
  ]);
  const r6 = w.response(p3, [
    { type: 'text', text: 'No, all done.' },
    { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'vitest' } },
  ]);
  w.add(r6.last, 'mystery-line', { payload: { kept: true } });
  w.raw({ type: 'custom-title', customTitle: 'Parser fix', sessionId: SESSION_ID });
  w.raw({ type: 'pr-link', sessionId: SESSION_ID, prNumber: 7, prUrl: 'https://example.com/pr/7', timestamp: '2026-04-01T10:00:00.000Z' });
  void r4;
  return w.text();
}

/** A subagent's own file (`<session>/subagents/agent-<id>.jsonl`): every line a sidechain carrying its agentId. */
export function claudeSubagent(seed = 2, agentId = 'a0b1c2d3e4f5a6b7c'): string {
  const rng = createRng(seed);
  const w = new ClaudeWriter(rng, { agentId });
  const p = w.user(null, 'Write a test for parse()', {}, true);
  const call = toolUse(rng, 'Bash', { command: 'npx vitest run' });
  const r = w.response(p, [call], { stop: 'tool_use', sidechain: true });
  const t = w.toolResult(r.last, call.id as string, 'ok', { sidechain: true, details: { stdout: 'ok', stderr: '' } });
  w.response(t, [{ type: 'text', text: 'Done.' }], { sidechain: true });
  return w.text();
}

/** A long transcript of about `bytes` bytes: prompts, split responses with thinking and parallel tool calls, results, progress. */
export function claudeLarge(bytes: number, seed = 3): string {
  const rng = createRng(seed);
  const w = new ClaudeWriter(rng);
  let parent: string | null = null;
  let size = 0;
  let counted = 0;
  while (size < bytes) {
    const p = w.user(parent, paragraph(rng));
    const calls = [toolUse(rng, 'Read', { file_path: `/src/${rng.hex(6)}.ts` }), toolUse(rng, 'Bash', { command: sentence(rng) })];
    const r = w.response(p, [{ type: 'thinking', thinking: paragraph(rng), signature: rng.hex(64) }, { type: 'text', text: sentence(rng) }, ...calls], {
      stop: 'tool_use',
    });
    let last = r.last;
    for (const c of calls) {
      const g = w.add(last, 'progress', { data: { type: 'hook_progress', hookEvent: 'PostToolUse' }, toolUseID: c.id });
      last = w.toolResult(g, c.id as string, paragraph(rng, rng.int(3, 12)), { details: { stdout: sentence(rng) } });
    }
    parent = w.response(last, [{ type: 'text', text: paragraph(rng) }]).last;
    for (; counted < w.lines.length; counted++) size += JSON.stringify(w.lines[counted]).length + 1;
  }
  return w.text();
}
