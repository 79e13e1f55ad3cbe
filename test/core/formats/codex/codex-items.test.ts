// The Codex adapter item by item, on a generated rollout holding every record and item type
// (test/gen/codex-rollout.ts), plus bad input, appends, and which files it claims.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSessionContext, SessionManager } from '@mariozechner/pi-coding-agent';
import { describe, expect, test } from 'vitest';
import { looksLikeCodex } from '../../../../src/core/formats/codex/index.ts';
import { toPiSession } from '../../../../src/core/formats/index.ts';
import { parse } from '../../../../src/core/index.ts';
import { codexBareRollout, codexRollout, codexRolloutRecords } from '../../../gen/codex-rollout.ts';

type Obj = Record<string, any>;
const ROOT = new URL('../../../../', import.meta.url).pathname;
const enc = new TextEncoder();
const convert = (text: string) => toPiSession(enc.encode(text), { file: 'rollout.jsonl' })!;
const entriesOf = (text: string): Obj[] => parse(text).entries as Obj[];
const messages = (es: Obj[], role: string) => es.filter((e) => e.type === 'message' && e.message.role === role).map((e) => e.message);
const parts = (es: Obj[], type: string) => messages(es, 'assistant').flatMap((m) => m.content.filter((c: Obj) => c.type === type));
const resultOf = (es: Obj[], name: string) => messages(es, 'toolResult').filter((m) => m.toolName === name);

const text = codexRollout({ turns: 6 });
const converted = convert(text);
const entries = entriesOf(converted.text);

test('the committed generated fixture is what the generator makes', () => {
  expect(readFileSync(join(ROOT, 'fixtures/other-agents/codex/generated-every-item.jsonl'), 'utf8')).toBe(text);
});

describe('every item type', () => {
  test('converts with no problem, and pi reads it', () => {
    expect(converted.problems).toEqual([]);
    expect(parse(converted.text).problems).toEqual([]);
  });

  test("Codex's own context and instructions are kept out of the model context; the user's words are messages", () => {
    const custom = entries.filter((e) => e.type === 'custom');
    expect(custom.find((e) => e.customType === 'codex.instructions')?.data.content[0].text).toMatch(/^<permissions instructions>/);
    const context = custom.filter((e) => e.customType === 'codex.context').flatMap((e) => e.data.content.map((c: Obj) => c.text.split('\n')[0]));
    expect(context).toEqual(['# AGENTS.md instructions for /home/dev/project', '<environment_context>', '<turn_aborted>', '<turn_aborted>']);
    const users = messages(entries, 'user');
    expect(users.map((m) => m.content[0].text)).toEqual([0, 1, 2, 3, 4, 5, 6].map((t) => `Turn ${t}: look at the build and fix it`));
    expect(users[1].content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    // A command the user ran themselves is pi's bashExecution.
    expect(messages(entries, 'bashExecution')).toEqual([
      {
        role: 'bashExecution',
        command: 'git status',
        output: 'On branch main\n',
        exitCode: 0,
        cancelled: false,
        truncated: false,
        timestamp: expect.any(Number),
      },
    ]);
  });

  test('reasoning is thinking with the item as signature, as pi stores openai-responses reasoning', () => {
    const thinking = parts(entries, 'thinking');
    expect(thinking.length).toBe(14);
    expect(thinking[0].thinking).toBe('**Thinking 0**');
    expect(JSON.parse(thinking[0].thinkingSignature)).toEqual({
      type: 'reasoning',
      id: 'rs_0a',
      summary: [{ type: 'summary_text', text: '**Thinking 0**' }],
      encrypted_content: 'gAAAA0encrypted',
    });
    expect(thinking[1]).toEqual({
      type: 'thinking',
      thinking: '',
      thinkingSignature: JSON.stringify({ type: 'reasoning', summary: [], encrypted_content: 'gAAAA0only' }),
    });
    const texts = parts(entries, 'text');
    expect(texts[0]).toEqual({ type: 'text', text: 'Checking 0.', textSignature: '{"v":1,"id":"msg_0a","phase":"commentary"}' });
  });

  test('tool calls and their results are paired, one result after its call, each kind in its shape', () => {
    const calls = parts(entries, 'toolCall');
    const byName = (n: string) => calls.filter((c) => c.name === n);
    expect(byName('exec_command')[0]).toEqual({ type: 'toolCall', id: 'call_0a|fc_0a', name: 'exec_command', arguments: { cmd: 'make test-0' } });
    expect(byName('shell_command')[0].arguments).toEqual({ raw: '{"command": "ls"' });
    expect(byName('apply_patch')[0].arguments.input).toMatch(/^\*\*\* Begin Patch/);
    expect(byName('local_shell')[0]).toMatchObject({ id: 'call_0l|lsh_0', arguments: { type: 'exec', command: ['bash', '-lc', 'pwd'] } });
    expect(byName('tool_search')[0]).toMatchObject({ id: 'call_0s|tsc_0', arguments: { query: 'browser', limit: 2 } });
    expect(byName('web_search')[0].arguments).toEqual({ type: 'search', query: 'codex 0' });
    expect(resultOf(entries, 'exec_command').map((m) => m.isError)).toEqual([false, true, false, true, false, true, false]);
    expect(resultOf(entries, 'web_search')[0].content).toEqual([{ type: 'text', text: 'Searched the web: codex 0' }]);
    expect(resultOf(entries, 'tool_search')[0].content[0].text).toBe('Tools found:\ncodex_app: open_browser');
    expect(resultOf(entries, 'view_image')[0].content.map((c: Obj) => c.type)).toEqual(['text', 'image']);
    expect(JSON.parse(resultOf(entries, 'apply_patch')[0].content[0].text).metadata.exit_code).toBe(0);
    // Every result follows the assistant message holding its call.
    const seen = new Set<string>();
    for (const e of entries) {
      if (e.type !== 'message') continue;
      if (e.message.role === 'assistant') for (const c of e.message.content) if (c.type === 'toolCall') seen.add(c.id);
      if (e.message.role === 'toolResult') expect(seen.has(e.message.toolCallId)).toBe(true);
    }
    expect(messages(entries, 'toolResult').length).toBe(calls.length);
  });

  test('turn_context changes become model and thinking-level changes; other items are kept out of context', () => {
    const recs = codexRolloutRecords({ turns: 6 }).filter((r) => r.type === 'turn_context');
    const want: string[] = [];
    let model = '';
    let effort = '';
    for (const r of recs as Obj[]) {
      if (r.payload.model !== model) want.push(`model ${(model = r.payload.model)}`);
      if (r.payload.effort !== effort) want.push(`level ${(effort = r.payload.effort)}`);
    }
    const got = entries.flatMap((e) =>
      e.type === 'model_change' ? [`model ${e.modelId}`] : e.type === 'thinking_level_change' ? [`level ${e.thinkingLevel}`] : [],
    );
    expect(got).toEqual(want);
    expect(entries.filter((e) => e.type === 'model_change').every((e) => e.provider === 'openai')).toBe(true);
    expect(entries.filter((e) => e.customType === 'codex.ghost_snapshot').length).toBe(7);
    expect(entries.filter((e) => e.type === 'custom_message').map((e) => [e.customType, e.content])).toEqual([
      ['codex.notice', 'Turn interrupted (interrupted)'],
      ['codex.error', 'stream disconnected before completion'],
      ['codex.notice', 'Turn interrupted (interrupted)'],
    ]);
  });

  test('compactions: a remote one is summarised by what it kept, a local one by its message; the latest rules the context', () => {
    const comps = entries.filter((e) => e.type === 'compaction');
    expect(comps.length).toBe(2);
    expect(comps[0].summary).toContain('User: Turn 0: look at the build and fix it');
    expect(comps[0].summary).toContain('Assistant: Done 0.');
    expect(comps[1].summary).toBe('Summary of turns 0-5: the build was fixed.');
    expect(comps.every((c) => c.firstKeptEntryId === c.id && c.tokensBefore > 0)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'codex-gen-'));
    try {
      writeFileSync(join(dir, 's.jsonl'), converted.text);
      const sm = SessionManager.open(join(dir, 's.jsonl'), dir);
      const ctx = buildSessionContext(sm.getEntries(), sm.getLeafId());
      expect(ctx.messages[0]).toMatchObject({ role: 'compactionSummary', summary: comps[1].summary });
      expect((ctx.messages as Obj[]).filter((m) => m.role === 'user').map((m) => m.content[0].text)).toEqual(['Turn 6: look at the build and fix it']);
      expect(ctx.model).toEqual({ provider: 'openai', modelId: 'gpt-5.4' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('usage: each response once, whichever side of its items Codex wrote the count', () => {
    const last = codexRolloutRecords({ turns: 6 }).findLast((r: Obj) => r.payload?.type === 'token_count' && r.payload.info)! as Obj;
    const total = last.payload.info.total_token_usage;
    const us = messages(entries, 'assistant').map((m) => m.usage);
    const sum = (k: string) => us.reduce((n, u) => n + u[k], 0);
    expect({ input: sum('input') + sum('cacheRead'), cacheRead: sum('cacheRead'), output: sum('output'), total: sum('totalTokens') }).toEqual({
      input: total.input_tokens,
      cacheRead: total.cached_input_tokens,
      output: total.output_tokens,
      total: total.total_tokens,
    });
    // Turn 0 (counts after the items): its first response (reasoning + two calls) has the first count.
    expect(messages(entries, 'assistant')[0].usage).toMatchObject({ input: 400, cacheRead: 600, output: 50, totalTokens: 1050 });
  });
});

test('a bare-era rollout (no envelopes, state lines, cwd in the environment context) reads the same way', () => {
  const bare = codexBareRollout();
  expect(readFileSync(join(ROOT, 'fixtures/other-agents/codex/generated-bare-era.jsonl'), 'utf8')).toBe(bare);
  const out = convert(bare);
  expect(out.format).toBe('codex');
  expect(out.problems).toEqual([]);
  const s = parse(out.text);
  expect(s.problems).toEqual([]);
  expect(s.header).toMatchObject({ id: 'c3c4b301-27c8-4c70-b6e4-46b99fdf0236', timestamp: '2025-05-20T10:00:00.000Z', cwd: '/Users/x/legacy' });
  const es = s.entries as Obj[];
  expect(es.map((e) => (e.type === 'message' ? e.message.role : e.customType))).toEqual(['codex.context', 'user', 'assistant', 'toolResult', 'assistant']);
  expect(es[2].message.content.map((c: Obj) => c.type)).toEqual(['thinking', 'toolCall']);
  expect(es[3].message).toMatchObject({ toolCallId: 'call_1|lsh_1', toolName: 'local_shell', isError: false });
  expect(es[4].message.content).toEqual([{ type: 'text', text: 'There is a.txt.', textSignature: '{"v":1,"id":"msg_1"}' }]);
  expect(es.every((e) => e.timestamp === '2025-05-20T10:00:00.000Z')).toBe(true);
});

test('the parent a header names: the spawning thread, else the session it was forked from', () => {
  const meta = (payload: Obj) =>
    `${JSON.stringify({ timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id: 'child', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/p', ...payload } })}\n`;
  const parentOf = (payload: Obj) => parse(convert(meta(payload)).text).header?.parentSession;
  expect(parentOf({ source: { subagent: { thread_spawn: { parent_thread_id: 'spawner', depth: 1 } } }, forked_from_id: 'old' })).toBe('spawner');
  expect(parentOf({ parent_thread_id: 'p2' })).toBe('p2');
  expect(parentOf({ forked_from_id: 'old' })).toBe('old');
  expect(parentOf({ source: 'cli' })).toBeUndefined();
});

describe('bad input', () => {
  test('each bad line is a problem with its line; the rest converts', () => {
    const lines = codexRollout({ turns: 1 }).split('\n').filter(Boolean);
    const bad = [
      ...lines.slice(0, 4),
      '{"type": "response_item", "payload": ',
      '[1, 2]',
      '{"no": "type"}',
      '{"type":"event_msg","payload":3}',
      ...lines.slice(4),
    ];
    const out = convert(`${bad.join('\n')}\n{"type":"event_msg","payl`);
    expect(out.problems.map((p) => [p.line, p.code, p.severity])).toEqual([
      [5, 'invalid-json', 'error'],
      [6, 'not-an-object', 'error'],
      [7, 'invalid-entry', 'warning'],
      [8, 'invalid-entry', 'warning'],
      [bad.length + 1, 'torn', 'error'],
    ]);
    expect(out.problems[3].message).toMatch(/event_msg.*payload/);
    expect(parse(out.text).problems).toEqual([]);
    expect(messages(entriesOf(out.text), 'user').length).toBe(2);
  });

  test('a rollout without session_meta still converts, and says so', () => {
    const lines = codexRollout({ turns: 0 }).split('\n').filter(Boolean).slice(1);
    const out = convert(`${lines.join('\n')}\n`);
    expect(out.problems.map((p) => p.code)).toEqual(['no-header']);
    expect(parse(out.text).problems).toEqual([]);
  });
});

describe('appending to a rollout', () => {
  const full = codexRollout({ turns: 60 });
  const fullLines = convert(full).text.split('\n');
  const cuts = [0.1, 0.33, 0.5, 0.77, 0.95].map((f) => Math.floor(full.length * f));

  test.each(cuts)('the conversion of the first %i chars is a prefix of the whole one, but for its last response', (at) => {
    const lineEnd = full.lastIndexOf('\n', at) + 1;
    for (const head of [full.slice(0, lineEnd), full.slice(0, at)]) {
      const got = convert(head);
      const lines = got.text.split('\n');
      const last = lines.findLastIndex((l) => l.includes('"role":"assistant"'));
      for (let i = 0; i < lines.length - 1; i++) if (i !== last) expect(lines[i]).toBe(fullLines[i]);
      if (head.length !== lineEnd) expect(got.problems.map((p) => p.code)).toEqual(['torn']);
    }
  });

  test('a big rollout made on demand converts the same twice', () => {
    const big = enc.encode(codexRollout({ turns: 400 }));
    const a = toPiSession(big)!;
    expect(a.problems).toEqual([]);
    expect(toPiSession(big)!.text).toBe(a.text);
    expect(new Set(parse(a.text).entries.map((e) => e.id)).size).toBe(parse(a.text).entries.length);
  });
});

describe('which files are Codex rollouts', () => {
  function jsonlFiles(dir: string): string[] {
    if (!existsSync(dir)) return [];
    return readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      if (statSync(p).isDirectory()) return n === 'generated' || n === 'node_modules' ? [] : jsonlFiles(p);
      return n.endsWith('.jsonl') ? [p] : [];
    });
  }
  const head = (path: string) =>
    readFileSync(path)
      .subarray(0, 65536)
      .toString('utf8')
      .split('\n')
      .slice(0, 8)
      .flatMap((l) => {
        try {
          const v = JSON.parse(l);
          return v && typeof v === 'object' && !Array.isArray(v) ? [v] : [];
        } catch {
          return [];
        }
      });
  const files = [...jsonlFiles(join(ROOT, 'fixtures')), ...jsonlFiles('/work/shared/fixtures')];

  test(`only Codex files are claimed, of ${files.length} fixtures (pi, omp, Claude Code, Codex, bad and hostile ones)`, () => {
    expect(files.length).toBeGreaterThan(50);
    const claimed = files.filter((f) => looksLikeCodex(head(f)));
    const isCodex = (f: string) => f.includes('/fixtures/other-agents/codex/');
    expect(claimed.filter((f) => !isCodex(f))).toEqual([]);
    expect(files.filter((f) => isCodex(f) && !claimed.includes(f))).toEqual([]);
  });
});
