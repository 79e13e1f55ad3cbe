// The Claude Code adapter on generated files (test/gen/claude.ts): every line and block type lands
// in pi's shape, a prompt edit and a retried response are branches, an inline sidechain hangs
// under its Task call, a compaction takes its summary; bad lines give problems with their line
// numbers and the rest still converts; detection never claims a pi or omp file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { claudeToPi, looksLikeClaude } from '../../../../src/core/formats/claude/index.ts';
import { detectFormat } from '../../../../src/core/formats/index.ts';
import { branch, context, indexEnvelopes, parse } from '../../../../src/core/index.ts';
import { ClaudeWriter, claudeEveryType, claudeLarge, claudeSubagent, SESSION_ID } from '../../../gen/claude.ts';
import { createRng } from '../../../gen/prng.ts';
import { activePath, cleanTmp, expectedOf, heldBy, piContext, sourceLines } from './claude-helpers.ts';

vi.setConfig({ testTimeout: 120_000 });
afterAll(cleanTmp);

type Any = Record<string, any>;
const enc = new TextEncoder();
const convert = (text: string) => claudeToPi(enc.encode(text), { file: 'x.jsonl' });

describe('every line and block type', () => {
  const source = claudeEveryType();
  const lines = sourceLines(source);
  const c = convert(source);
  const parsed = parse(c.text);
  const entries = parsed.entries as Any[];
  const messages = entries.filter((e) => e.type === 'message').map((e) => e.message);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const childrenOf = (id: string) => entries.filter((e) => e.parentId === id);

  test('reads with no problem, here or in our core', () => {
    expect(c.problems).toEqual([]);
    expect(parsed.problems).toEqual([]);
    expect(indexEnvelopes(c.text).problems).toEqual([]);
    expect(parsed.header).toEqual({ type: 'session', version: 3, id: SESSION_ID, timestamp: '2026-04-01T09:00:00.000Z', cwd: '/home/dev/project' });
  });

  test('one pi assistant message per API response: thinking with its signature, redacted thinking, text, tool calls, pi names', () => {
    const first = messages.find((m) => m.role === 'assistant')!;
    expect(first.content).toEqual([
      { type: 'thinking', thinking: 'The parser drops the last line.', thinkingSignature: expect.stringMatching(/^sig-/) },
      { type: 'thinking', thinking: '[Reasoning redacted]', thinkingSignature: expect.stringMatching(/^redacted-/), redacted: true },
      { type: 'text', text: 'Let me read the parser.' },
      { type: 'toolCall', id: expect.stringMatching(/^toolu_/), name: 'Read', arguments: { file_path: '/home/dev/project/parser.ts' } },
      { type: 'toolCall', id: expect.stringMatching(/^toolu_/), name: 'Grep', arguments: { pattern: 'parse' } },
    ]);
    expect(first).toMatchObject({
      api: 'anthropic-messages',
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      stopReason: 'toolUse',
      responseId: expect.stringMatching(/^msg_/),
    });
    // usage once, from the response's final line (its output count is the largest)
    expect(first.usage).toEqual({
      input: 3,
      output: 250,
      cacheRead: 4000,
      cacheWrite: 120,
      totalTokens: 4373,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    });
  });

  test('tool results: pi toolResult messages with the tool name, images, isError, toolUseResult as details, chained after the call', () => {
    const results = messages.filter((m) => m.role === 'toolResult');
    const [read, grep] = results;
    expect(read).toMatchObject({ toolName: 'Read', isError: false, details: { type: 'text', file: { filePath: '/home/dev/project/parser.ts' } } });
    expect(read.content[0]).toEqual({ type: 'text', text: 'export function parse() {}' });
    expect(read.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png', data: expect.any(String) });
    expect(grep).toMatchObject({
      toolName: 'Grep',
      isError: true,
      content: [{ type: 'text', text: 'grep: bad pattern' }],
      details: 'Error: grep: bad pattern',
    });
    // Claude hung the first result off its own call line; here both follow the one assistant entry in a line
    const call = entries.find((e) => e.message?.role === 'assistant')!;
    const readEntry = entries.find((e) => e.message === read)!;
    const grepEntry = entries.find((e) => e.message === grep)!;
    expect(grepEntry.parentId).toBe(readEntry.id);
    let up = byId.get(readEntry.parentId);
    while (up && up.id !== call.id) up = byId.get(up.parentId);
    expect(up).toBe(call);
  });

  test('user content: images as pi images, a document as a note, meta prompts as hidden custom messages, API errors as error turns', () => {
    const firstUser = messages.find((m) => m.role === 'user')!;
    expect(firstUser.content).toEqual([
      { type: 'text', text: 'Look at this screenshot and fix the parser' },
      { type: 'image', data: expect.any(String), mimeType: 'image/png' },
    ]);
    expect(messages.find((m) => m.role === 'user' && Array.isArray(m.content) && m.content[0].text === 'Anything else?').content[1]).toEqual({
      type: 'text',
      text: '[document: spec.pdf]',
    });
    expect(entries.find((e) => e.type === 'custom_message')).toMatchObject({
      customType: 'claude-code:meta',
      display: false,
      content: [{ type: 'text', text: 'Base directory for this skill: /skills/parse' }],
    });
    expect(messages.find((m) => m.stopReason === 'error')).toMatchObject({
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [],
      errorMessage: 'API Error: Overloaded',
    });
    expect(messages.some((m) => m.role === 'user' && m.content.startsWith?.('<command-name>/model'))).toBe(true);
  });

  test('compaction: the boundary becomes a pi compaction whose summary is the isCompactSummary message, keeping nothing before it', () => {
    const comp = entries.find((e) => e.type === 'compaction')!;
    expect(comp).toMatchObject({
      summary: 'This session is being continued from a previous conversation. Summary: the parser was fixed and tested.',
      tokensBefore: 182356,
      firstKeptEntryId: comp.id,
      details: { trigger: 'auto', preTokens: 182356 },
    });
    // attached to its logical parent (the last reply before it), not a new root
    expect(byId.get(comp.parentId)?.message?.content[0].text).toBe('Written with vitest.');
    const { messages: ctx } = piContext(c.text);
    expect(ctx[0]).toMatchObject({ role: 'compactionSummary', summary: comp.summary });
    expect(ctx.map((m) => m.role)).toEqual(['compactionSummary', 'user', 'assistant']);
    // our core agrees: the summary first, nothing kept from before the boundary
    const ours = context(branch(parsed));
    expect(ours.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
    expect(JSON.stringify(ours[0])).toContain('the parser was fixed and tested');
  });

  test('titles as pi session_info; other lines kept whole as custom entries claude-code:<type>', () => {
    expect(entries.filter((e) => e.type === 'session_info').map((e) => e.name)).toEqual(['Fixing the parser', 'Parser fix']);
    const types = entries.filter((e) => e.type === 'custom').map((e) => e.customType);
    for (const t of [
      'queue-operation',
      'permission-mode',
      'file-history-snapshot',
      'attachment',
      'progress',
      'system',
      'last-prompt',
      'mystery-line',
      'pr-link',
    ])
      expect(types).toContain(`claude-code:${t}`);
    expect(entries.find((e) => e.customType === 'claude-code:mystery-line')?.data).toEqual({ payload: { kept: true } });
    expect(entries.find((e) => e.customType === 'claude-code:system' && e.data.subtype === 'api_error')?.data).toMatchObject({
      level: 'error',
      content: 'Overloaded; retrying',
    });
  });

  test('a prompt edit and a retried response are branches; the sidechain hangs under its Task call; one root', () => {
    const edited = entries.filter(
      (e) => e.message?.role === 'user' && typeof e.message.content === 'string' && e.message.content.startsWith('Now write the test'),
    );
    expect(edited).toHaveLength(2);
    expect(edited[0].parentId).toBe(edited[1].parentId);
    const p2 = edited[0];
    const answers = childrenOf(p2.id).filter((e) => e.message?.role === 'assistant');
    expect(answers.map((e) => e.message.stopReason).sort()).toEqual(['error', 'toolUse']);
    const task = answers.find((e) => e.message.stopReason === 'toolUse')!;
    const kids = childrenOf(task.id);
    expect(kids.map((e) => e.message?.role)).toEqual(['user', 'toolResult']);
    expect(kids[0].message.content).toBe('Write a test for parse()');
    expect(entries.filter((e) => e.parentId === null)).toHaveLength(1);
  });

  test("pi's branch and context: every message of the active path, the leaf last", () => {
    const { messages: ctx, branch: piBranch } = piContext(c.text);
    const expected = expectedOf(activePath(lines));
    const held = heldBy(ctx);
    expect(held.responses).toEqual(expect.arrayContaining(expected.responses));
    for (const p of expected.prompts) expect(held.prompts.some((h) => h.includes(p))).toBe(true);
    // pi's branch is ours
    expect(piBranch.map((e) => e.id)).toEqual(branch(parsed).map((e) => e.id));
    expect(piBranch.at(-1)?.type).toBe('custom');
  });
});

describe('a subagent file', () => {
  test('its own session, parentSession = the parent session id, converts with no problem', () => {
    const c = convert(claudeSubagent());
    expect(c.problems).toEqual([]);
    const parsed = parse(c.text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.header).toMatchObject({ id: 'agent-a0b1c2d3e4f5a6b7c', parentSession: SESSION_ID });
    expect(piContext(c.text).messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
  });
});

describe('bad input', () => {
  const good = claudeEveryType().split('\n');
  test('an invalid JSON line, a line that is not an object, a torn last line: problems with their lines, the rest converted', () => {
    const lines = [...good.slice(0, 6), '{"type":"user", nope', '[1,2,3]', ...good.slice(6, -1)];
    const text = `${lines.join('\n')}\n{"parentUuid":"x","type":"assis`;
    const c = convert(text);
    expect(c.problems.map((p) => [p.line, p.code, p.severity])).toEqual([
      [7, 'invalid-json', 'error'],
      [8, 'not-an-object', 'error'],
      [lines.length + 1, 'torn', 'error'],
    ]);
    expect(parse(c.text).problems).toEqual([]);
    const whole = convert(good.join('\n'));
    expect(parse(c.text).entries.length).toBe(parse(whole.text).entries.length);
  });

  test('a missing parent: a prompt becomes a root as in pi, with a warning and its line; a hook line joins the conversation, as Claude Code writes them, unreported', () => {
    const lines = good.slice(0, -1).map((l) => JSON.parse(l));
    const at = lines.findIndex((r) => r.type === 'progress');
    lines[at].parentUuid = 'gone-0000';
    const prompt = lines.findIndex((r) => r.type === 'user' && r.message.content === 'Now write the test');
    lines[prompt].parentUuid = 'gone-1111';
    const c = convert(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    expect(c.problems.map((p) => [p.line, p.code])).toEqual([[prompt + 1, 'missing-parent']]);
    expect(c.problems[0]?.message).toContain('read as a root');
    expect(parse(c.text).problems).toEqual([]);
  });

  test('a tool result written before its call waits for it (the converted file is as if written in order)', () => {
    const lines = good.slice(0, -1).map((l) => JSON.parse(l));
    const res = lines.findIndex((r) => r.type === 'user' && r.toolUseResult === 'Error: grep: bad pattern');
    lines[res].parentUuid = lines[res].sourceToolAssistantUUID;
    const inOrder = convert(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const call = lines.findIndex((r) => r.uuid === lines[res].sourceToolAssistantUUID);
    const [moved] = lines.splice(call, 1);
    lines.splice(res, 0, moved);
    expect(lines.findIndex((r) => r.uuid === moved.uuid)).toBeGreaterThan(lines.findIndex((r) => r.toolUseResult === 'Error: grep: bad pattern'));
    const c = convert(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    expect(c.problems).toEqual([]);
    expect(inOrder.problems).toEqual([]);
    expect(c.text).toBe(inOrder.text);
  });
});

describe('detection', () => {
  test('Claude files are told by content: a queue-operation or file-history-snapshot first, or a first line too long for the head', () => {
    expect(detectFormat(enc.encode(claudeEveryType()))).toBe('claude-code');
    expect(detectFormat(enc.encode(claudeSubagent()))).toBe('claude-code');
    const big = claudeLarge(200_000).split('\n');
    const huge = JSON.parse(big[0] as string);
    huge.message.content = 'x'.repeat(100_000);
    const text = [JSON.stringify(huge), ...big.slice(1)].join('\n');
    expect(detectFormat(enc.encode(text).subarray(0, 65536))).toBe('claude-code');
    expect(looksLikeClaude([{ type: 'file-history-snapshot', messageId: 'm', snapshot: {}, isSnapshotUpdate: false }])).toBe(true);
  });

  test('no pi or omp file in the fixtures is taken for Claude, every Claude one is', () => {
    const root = join(import.meta.dirname, '../../../../fixtures');
    const seen: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (name.endsWith('.jsonl')) {
          const claude = detectFormat(new Uint8Array(readFileSync(p)).subarray(0, 65536)) === 'claude-code';
          expect([p, claude]).toEqual([p, p.includes('/other-agents/claude/')]);
          seen.push(p);
        }
      }
    };
    walk(root);
    expect(seen.length).toBeGreaterThan(50);
  });
});

test('a large generated file converts with no problem and pi builds its whole context', () => {
  const source = claudeLarge(1_000_000);
  const c = convert(source);
  expect(c.problems).toEqual([]);
  expect(parse(c.text).problems).toEqual([]);
  const expected = expectedOf(activePath(sourceLines(source)));
  const held = heldBy(piContext(c.text).messages);
  expect(held.responses).toEqual([...new Set(expected.responses)]);
  expect(held.toolResults).toEqual(expected.toolResults);
});

test("a file ending inside a running subagent: pi's leaf stays on the main chain", () => {
  const w = new ClaudeWriter(createRng(5));
  const p = w.user(null, 'Plan the release');
  const task = { type: 'tool_use', id: 'toolu_task1', name: 'Task', input: { description: 'check', prompt: 'Check the changelog' } };
  const r = w.response(p, [{ type: 'text', text: 'Asking a subagent.' }, task], { stop: 'tool_use' });
  const s = w.user(null, 'Check the changelog', {}, true);
  w.response(s, [{ type: 'text', text: 'Reading it.' }], { sidechain: true });
  const c = convert(w.text());
  expect(c.problems).toEqual([]);
  const parsed = parse(c.text);
  expect(parsed.problems).toEqual([]);
  expect(indexEnvelopes(c.text).problems).toEqual([]);
  const entries = parsed.entries as Any[];
  expect(entries.at(-1)?.message?.content?.[1]?.name).toBe('Task');
  expect(branch(parsed).map((e) => e.id)).toEqual(piContext(c.text).branch.map((e) => e.id));
  const { messages, leafId } = piContext(c.text);
  expect(leafId).toBe(entries.at(-1)?.id);
  expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  // the subagent's lines are still there, under the call
  const side = entries.find((e) => e.message?.content === 'Check the changelog');
  expect(side?.parentId).toBe(entries.at(-1)?.id);
  void r;
});
