// The Claude Code adapter on the real files (fixtures/other-agents/claude, Claude Code 1.0.89–2.1.101):
// each converts with no error, the result reads with our core with no problem, and pi's own
// SessionManager and buildSessionContext build from it a context holding every message of the
// source's active path; usage is counted once per API response; conversion is deterministic and
// appending to the source leaves the converted prefix as it was.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { claudeToPi } from '../../../../src/core/formats/claude/index.ts';
import { detectFormat, toPiSession } from '../../../../src/core/formats/index.ts';
import { branch as branchOf, context, findSubagentStart, indexEnvelopes, parse } from '../../../../src/core/index.ts';
import { chooseLeaf, openBranch, windowOf } from '../../../../src/core/view/session.ts';
import { openSource } from '../../../../src/core/view/source.ts';
import { activePath, cleanTmp, expectedOf, heldBy, piContext, sourceLines, sourceTokens } from './claude-helpers.ts';

vi.setConfig({ testTimeout: 120_000 });
afterAll(cleanTmp);

const DIR = join(import.meta.dirname, '../../../../fixtures/other-agents/claude');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.jsonl'));
const read = (f: string) => new Uint8Array(readFileSync(join(DIR, f)));

type Any = Record<string, any>;

test('the six real Claude files are there', () => {
  expect(FILES).toHaveLength(6);
});

describe.each(FILES)('%s', (file) => {
  const bytes = read(file);
  const converted = toPiSession(bytes, { file });
  const text = new TextDecoder().decode(bytes);
  const lines = sourceLines(text);

  test('is recognised as Claude Code and converts with no problem (the library shows none on a file Claude Code wrote)', () => {
    expect(detectFormat(bytes.subarray(0, 65536))).toBe('claude-code');
    expect(converted?.format).toBe('claude-code');
    expect(converted?.problems).toEqual([]);
  });

  test('the converted text reads with our core with no problem', () => {
    const parsed = parse(converted!.text, { file });
    expect(parsed.problems).toEqual([]);
    expect(parsed.header).toMatchObject({ type: 'session', version: 3, id: expect.any(String), cwd: lines.find((r) => r.cwd)?.cwd });
    expect(indexEnvelopes(converted!.text, { file }).problems).toEqual([]);
    expect(new TextEncoder().encode(converted!.text.slice(0, converted!.text.indexOf('\n'))).length).toBeLessThan(512);
  });

  test("pi's context holds every user, assistant and tool-result message of the source's active path", () => {
    const { messages, leafId } = piContext(converted!.text);
    expect(leafId).not.toBeNull();
    const expected = expectedOf(activePath(lines));
    const held = heldBy(messages);
    expect(expected.responses.length + expected.prompts.length).toBeGreaterThan(0);
    expect(held.responses).toEqual(expect.arrayContaining(expected.responses));
    expect(held.toolCalls).toEqual(expect.arrayContaining(expected.toolCalls));
    expect(held.toolResults).toEqual(expect.arrayContaining(expected.toolResults));
    for (const p of expected.prompts) expect(held.prompts.some((h) => h.includes(p))).toBe(true);
    for (const p of expected.meta) expect(held.meta.some((h) => h.includes(p))).toBe(true);
    // every tool result in the context follows the call it answers
    const calls = new Set<string>();
    for (const m of messages) {
      if (m.role === 'assistant') for (const p of m.content) if (p.type === 'toolCall') calls.add(p.id);
      if (m.role === 'toolResult') expect(calls.has(m.toolCallId)).toBe(true);
    }
  });

  test('usage is counted once per message.id + requestId', () => {
    const parsed = parse(converted!.text);
    const sum = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, responses: 0 };
    for (const e of parsed.entries as Any[]) {
      const u = e.type === 'message' && e.message.role === 'assistant' ? e.message.usage : null;
      if (!u) continue;
      sum.input += u.input;
      sum.output += u.output;
      sum.cacheRead += u.cacheRead;
      sum.cacheWrite += u.cacheWrite;
      expect(u.totalTokens).toBe(u.input + u.output + u.cacheRead + u.cacheWrite);
      if (u.totalTokens > 0) sum.responses++;
    }
    const direct = sourceTokens(lines);
    expect({ ...sum, responses: 0 }).toEqual({ ...direct, responses: 0 });
    expect(sum.responses).toBeLessThanOrEqual(direct.responses);
    // counting every assistant line instead would count split responses several times
    const perLine = lines.filter((r) => r.type === 'assistant').reduce((a, r) => a + (r.message?.usage?.cache_read_input_tokens ?? 0), 0);
    expect(perLine).toBeGreaterThanOrEqual(direct.cacheRead);
  });

  test('converting twice gives identical bytes', () => {
    expect(claudeToPi(bytes, { file }).text).toBe(converted!.text);
  });

  test('a prefix of the source converts to lines the whole file also has (all but the response still being written)', () => {
    const whole = new Set(converted!.text.split('\n'));
    const ends: number[] = [];
    for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) ends.push(i + 1);
    for (const frac of [0.25, 0.5, 0.9]) {
      const cut = ends[Math.floor(ends.length * frac)] as number;
      const prefix = claudeToPi(bytes.subarray(0, cut), { file }).text.split('\n');
      expect(prefix[0]).toBe(converted!.text.slice(0, converted!.text.indexOf('\n')));
      const changed = prefix.filter((l) => !whole.has(l));
      // what may change: the one API response or compaction cut in half (its later lines add content, usage or the summary)
      expect(changed.length).toBeLessThanOrEqual(1);
      for (const l of changed) expect(['message', 'compaction']).toContain(JSON.parse(l).type);
    }
  });
});

test('a subagent file gets its own session id and names its parent session', () => {
  const parent = toPiSession(read('LAF-US-IDAHO-VAULT-v2.1.101-compact6.jsonl'))!;
  const child = toPiSession(read('LAF-US-IDAHO-VAULT-v2.1.101-compact6-subagent.jsonl'))!;
  const ph = JSON.parse(parent.text.slice(0, parent.text.indexOf('\n')));
  const ch = JSON.parse(child.text.slice(0, child.text.indexOf('\n')));
  expect(ch.id).toBe('agent-a3144f31772d15038');
  expect(ch.parentSession).toBe(ph.id);
  expect(ph.parentSession).toBeUndefined();
  // the parent's Agent tool result names the agent in its details (what findSubagentStart looks for)
  const results = parse(parent.text).entries.filter((e: Any) => e.message?.role === 'toolResult' && e.message.details?.agentId === 'a3144f31772d15038');
  expect(results).toHaveLength(1);
  // the core's subagent linking finds the Agent call from the agent id (the file name's `agent-<id>`)
  const parentEntries = parse(parent.text).entries;
  const start = findSubagentStart(parentEntries, { name: 'a3144f31772d15038', started: parse(child.text).header?.timestamp as string });
  const call = parentEntries.find((e) => e.id === start?.entryId) as Any;
  expect(call.message.content.some((p: Any) => p.type === 'toolCall' && p.id === start?.toolCallId && p.name === 'Agent')).toBe(true);
});

test('old inline sidechains hang under the Task call that started them', () => {
  const c = toPiSession(read('SWORDIntel-claude-backups-v1.0.89-sidechain-thinking.jsonl'))!;
  const entries = parse(c.text).entries as Any[];
  const byId = new Map(entries.map((e) => [e.id, e]));
  const taskCalls = entries.filter((e) => e.message?.role === 'assistant' && e.message.content.some((p: Any) => p.type === 'toolCall' && p.name === 'Task'));
  expect(taskCalls.length).toBe(5);
  // each subagent's first prompt (the Task call's prompt) is a child of the entry holding the call
  // (the last call's subagent never wrote a line: the file ends while it runs)
  let linked = 0;
  for (const call of taskCalls) {
    const prompt = call.message.content.find((p: Any) => p.type === 'toolCall' && p.name === 'Task').arguments.prompt;
    const root = entries.find((e) => e.message?.role === 'user' && e.message.content === prompt);
    if (!root) continue;
    expect(byId.get(root.parentId)).toBe(call);
    linked++;
  }
  expect(linked).toBe(4);
  expect(entries.filter((e) => e.parentId === null)).toHaveLength(1);
});

test('six compactions become six pi compaction entries, summary from the isCompactSummary line', () => {
  const bytes = read('LAF-US-IDAHO-VAULT-v2.1.101-compact6.jsonl');
  const summaries = sourceLines(new TextDecoder().decode(bytes)).filter((r) => r.isCompactSummary);
  const compactions = parse(toPiSession(bytes)!.text).entries.filter((e) => e.type === 'compaction') as Any[];
  expect(compactions.map((c) => c.summary)).toEqual(summaries.map((r) => r.message.content));
  for (const c of compactions) expect(c.tokensBefore).toBeGreaterThan(0);
});

describe("the reader's view and our context of a converted file", () => {
  test.each(FILES)('%s: tool results fold into their calls, nothing unknown, our context builds', (file) => {
    const c = toPiSession(read(file))!;
    const reader = openSource(file, c.text);
    const branch = openBranch(reader, chooseLeaf(reader, null));
    const all = windowOf(reader, branch, 'all', 0, 1e9);
    expect(all.filter((i) => i.kind === 'unknown')).toEqual([]);
    // a result stands alone only when its call is not on the branch (before a compaction's cut there is none)
    expect(all.filter((i) => i.kind === 'toolResult')).toEqual([]);
    const blocks = all.flatMap((i) => (i.kind === 'assistant' ? i.blocks : []));
    expect(blocks.some((b) => b.kind === 'tool' && b.tool.result)).toBe(true);
    const ours = context(branchOf(parse(c.text)));
    expect(ours.length).toBeGreaterThan(0);
  });
});
