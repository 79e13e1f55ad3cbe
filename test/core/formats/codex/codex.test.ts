// Real Codex CLI rollouts (fixtures/other-agents/codex, 0.40–0.142) converted to pi v3, checked
// by our core and by pi's own SessionManager + buildSessionContext (the judge) against what the
// source lines say, derived here independently of the adapter.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getModel } from '@mariozechner/pi-ai';
import { streamOpenAIResponses } from '@mariozechner/pi-ai/openai-responses';
import { buildSessionContext, convertToLlm, SessionManager } from '@mariozechner/pi-coding-agent';
import { afterAll, describe, expect, test } from 'vitest';
import { detectFormat, toPiSession } from '../../../../src/core/formats/index.ts';
import { indexEnvelopes, parse, totals } from '../../../../src/core/index.ts';

const DIR = new URL('../../../../fixtures/other-agents/codex/', import.meta.url).pathname;
const REAL = readdirSync(DIR)
  .filter((f) => f.endsWith('.jsonl') && !f.startsWith('generated'))
  .sort();
const tmp = mkdtempSync(join(tmpdir(), 'codex-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Obj = Record<string, any>;
const records = (text: string): Obj[] =>
  text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

/** What the source says, read straight from its records (not through the adapter). */
function expectation(recs: Obj[]) {
  const users: string[] = [];
  const texts: string[] = [];
  const calls: string[] = [];
  const results: string[] = [];
  const encrypted: string[] = [];
  let usage = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  for (const r of recs) {
    const p = r.payload;
    if (r.type === 'event_msg' && p.type === 'user_message') users.push(p.message);
    if (r.type === 'event_msg' && p.type === 'token_count' && p.info) usage = p.info.total_token_usage;
    if (r.type !== 'response_item') continue;
    if (p.type === 'message' && p.role === 'assistant') for (const c of p.content) texts.push(c.text);
    if (['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call'].includes(p.type)) calls.push(p.call_id);
    if (['function_call_output', 'custom_tool_call_output', 'tool_search_output'].includes(p.type)) results.push(p.call_id);
    if (p.type === 'reasoning') encrypted.push(p.encrypted_content);
  }
  return { users, texts, calls, results, encrypted, usage };
}

/** The same facts read from pi messages (AgentMessage objects). */
function observed(messages: Obj[]) {
  const users: string[] = [];
  const texts: string[] = [];
  const calls: string[] = [];
  const results: string[] = [];
  const encrypted: string[] = [];
  for (const m of messages) {
    if (m.role === 'user') users.push(m.content.map((c: Obj) => c.text ?? '').join(''));
    if (m.role === 'toolResult' && m.toolName !== 'web_search') results.push(m.toolCallId.split('|')[0]);
    if (m.role !== 'assistant') continue;
    for (const c of m.content) {
      if (c.type === 'text') texts.push(c.text);
      if (c.type === 'toolCall' && c.name !== 'web_search') calls.push(c.id.split('|')[0]);
      if (c.type === 'thinking') encrypted.push(JSON.parse(c.thinkingSignature).encrypted_content);
    }
  }
  return { users, texts, calls, results, encrypted };
}

describe.each(REAL)('%s', (name) => {
  const bytes = new Uint8Array(readFileSync(join(DIR, name)));
  const source = records(new TextDecoder().decode(bytes));
  const converted = toPiSession(bytes, { file: name });

  test('is recognised as Codex and converts with no problem', () => {
    expect(detectFormat(bytes.subarray(0, 65536))).toBe('codex');
    expect(converted?.format).toBe('codex');
    expect(converted?.problems).toEqual([]);
  });

  test('the result reads cleanly with our core (parse and indexEnvelopes)', () => {
    const text = converted!.text;
    const s = parse(text);
    expect(s.problems).toEqual([]);
    expect(s.isSession).toBe(true);
    expect(s.version).toBe(3);
    expect(indexEnvelopes(text).problems).toEqual([]);
    // pi lists a file only when its header line is whole within the first 512 bytes (§1.2).
    expect(text.indexOf('\n')).toBeLessThan(512);
    const meta = source[0].payload;
    expect(s.header).toMatchObject({ type: 'session', version: 3, id: meta.id, timestamp: meta.timestamp, cwd: meta.cwd });
  });

  test('converting twice gives the same bytes', () => {
    expect(toPiSession(bytes, { file: name })!.text).toBe(converted!.text);
  });

  test("pi's SessionManager holds every message of the source, in order, and its context continues it", () => {
    const file = join(tmp, name);
    writeFileSync(file, converted!.text);
    const copy = join(tmp, `copy-${name}`);
    copyFileSync(file, copy);
    const sm = SessionManager.open(copy, tmp);
    expect(sm.getSessionId()).toBe(source[0].payload.id);
    const entries = sm.getEntries();
    const branch = sm.getBranch();
    // Linear: the active branch is every entry.
    expect(branch.map((e) => e.id)).toEqual(entries.map((e) => e.id));
    const want = expectation(source);
    const messages = branch.flatMap((e) => (e.type === 'message' ? [e.message as Obj] : []));
    expect(observed(messages)).toEqual({ users: want.users, texts: want.texts, calls: want.calls, results: want.results, encrypted: want.encrypted });

    // The context pi builds: after Codex's last compaction only what followed it, else everything.
    const ctx = buildSessionContext(entries, sm.getLeafId());
    const cut = source.findLastIndex((r) => r.type === 'compacted');
    const after = expectation(cut < 0 ? source : source.slice(cut + 1));
    const inContext = observed(ctx.messages as Obj[]);
    expect(inContext).toEqual({ users: after.users, texts: after.texts, calls: after.calls, results: after.results, encrypted: after.encrypted });
    if (cut >= 0) {
      expect((ctx.messages[0] as Obj).role).toBe('compactionSummary');
      // A remote compaction (empty message): the summary holds the messages Codex kept.
      const kept = source[cut].payload.replacement_history.filter((i: Obj) => i.type === 'message' && i.role === 'user');
      expect((ctx.messages[0] as Obj).summary).toContain(kept[0].content[0].text);
    }
    // Model and effort in effect are the last turn's.
    const turn = source.findLast((r) => r.type === 'turn_context')!.payload;
    expect(ctx.model).toEqual({ provider: 'openai', modelId: turn.model });
    if (turn.effort) expect(ctx.thinkingLevel).toBe(turn.effort);
    // Every tool call is answered right after its assistant message (pi replays pairs).
    const calls = new Set<string>();
    for (const m of ctx.messages as Obj[]) {
      if (m.role === 'assistant') for (const c of m.content) if (c.type === 'toolCall') calls.add(c.id);
      if (m.role === 'toolResult') expect(calls.has(m.toolCallId)).toBe(true);
    }
  });

  test("pi's next request to OpenAI replays the context: every reasoning item (encrypted), each call then its output", async () => {
    const file = join(tmp, `next-${name}`);
    writeFileSync(file, converted!.text);
    const sm = SessionManager.open(file, tmp);
    const ctx = buildSessionContext(sm.getEntries(), sm.getLeafId());
    const model = getModel('openai', ctx.model!.modelId as never);
    let request: Obj | undefined;
    // The request pi's provider builds, caught before it is sent (no network).
    const stream = streamOpenAIResponses(
      model,
      { systemPrompt: 'pi', messages: convertToLlm(ctx.messages), tools: [] },
      {
        apiKey: 'none',
        onPayload: (payload) => {
          request = payload as Obj;
          throw new Error('caught before sending');
        },
      },
    );
    for await (const event of stream) if (event.type === 'error') expect(event.error.errorMessage).toBe('caught before sending');
    const input = request!.input as Obj[];
    const thinking = (ctx.messages as Obj[]).flatMap((m) => (m.role === 'assistant' ? m.content.filter((c: Obj) => c.type === 'thinking') : []));
    expect(input.filter((i) => i.type === 'reasoning' && i.encrypted_content).map((i) => i.encrypted_content)).toEqual(
      thinking.map((t) => JSON.parse(t.thinkingSignature).encrypted_content),
    );
    const called = new Set<string>();
    let outputs = 0;
    for (const i of input) {
      if (i.type === 'function_call') called.add(i.call_id);
      if (i.type === 'function_call_output') {
        expect(called.has(i.call_id)).toBe(true);
        outputs++;
      }
    }
    expect(outputs).toBe(called.size);
  });

  test('usage totals equal the last cumulative token_count', () => {
    const { usage } = expectation(source);
    const s = parse(converted!.text);
    let input = 0;
    let cached = 0;
    let output = 0;
    for (const e of s.entries) {
      const m = e.message as Obj | undefined;
      if (e.type !== 'message' || m?.role !== 'assistant') continue;
      input += m.usage.input;
      cached += m.usage.cacheRead;
      output += m.usage.output;
      expect(m.usage.totalTokens).toBe(m.usage.input + m.usage.cacheRead + m.usage.output + m.usage.cacheWrite);
    }
    expect({ input: input + cached, cached, output }).toEqual({ input: usage.input_tokens, cached: usage.cached_input_tokens, output: usage.output_tokens });
    expect(totals(s.entries).tokens).toBe(usage.total_tokens);
  });
});

test('a spawned child names its parent; the parent holds the spawn_agent call that started it', async () => {
  const { codexSpawns } = await import('../../../../src/core/formats/codex/index.ts');
  const child = toPiSession(new Uint8Array(readFileSync(join(DIR, 'h-morishita-esol-devenv-v0.104.0-spawn-child.jsonl'))))!;
  const parent = toPiSession(new Uint8Array(readFileSync(join(DIR, 'h-morishita-esol-devenv-v0.104.0-spawn-parent.jsonl'))))!;
  const childHeader = parse(child.text).header!;
  const parentSession = parse(parent.text);
  expect(childHeader.parentSession).toBe(parentSession.header!.id);
  const spawns = codexSpawns(parentSession.entries);
  expect(spawns.map((s) => s.childId)).toContain(childHeader.id);
  const start = spawns.find((s) => s.childId === childHeader.id)!;
  const entry = parentSession.byId.get(start.entryId)!;
  expect((entry.message as Obj).content.some((c: Obj) => c.type === 'toolCall' && c.id === start.toolCallId && c.name === 'spawn_agent')).toBe(true);
});
