import { describe, expect, test } from 'vitest';
import {
  CoreError,
  append,
  assistant,
  attachmentEnvelope,
  branch,
  compaction,
  context,
  custom,
  modelChange,
  newSession,
  openSession,
  parse,
  toolResult,
  typed,
  user,
  uuidv7From,
  type Session,
} from '../../../src/core/index.ts';
import { HEADER, jsonl } from '../helpers.ts';

/** Deterministic clock and ids: each call advances one second / counts up. */
function deps(ids: string[] = []) {
  let t = Date.UTC(2026, 0, 1);
  let n = 0;
  return {
    now: () => new Date((t += 1000)),
    randomId: () => ids.shift() ?? (++n).toString(16).padStart(8, '0'),
  };
}
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

describe('newSession and append', () => {
  test('newSession writes nothing; the first append writes header, model_change and the entry', () => {
    let s = newSession({ model: 'openai_codex:gpt-5', cwd: '/p', ...deps() });
    expect(s.header).toBeNull();
    const r = append(s, user('Fix the bug\nin main.ts'));
    const lines = decode(r.bytes).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    const [h, mc, en] = lines.slice(0, 3).map((l) => JSON.parse(l));
    expect(h).toMatchObject({ type: 'session', version: 3, cwd: '/p', timestamp: '2026-01-01T00:00:01.000Z', title: 'Fix the bug' });
    expect(h.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Object.keys(h)).toEqual(['type', 'version', 'id', 'timestamp', 'cwd', 'title']);
    // The header's UUIDv7 took three randomId calls.
    expect(mc).toEqual({
      type: 'model_change',
      id: '00000004',
      parentId: null,
      timestamp: '2026-01-01T00:00:01.000Z',
      model: 'openai-codex/gpt-5',
      provider: 'openai-codex',
      modelId: 'gpt-5',
    });
    expect(en).toEqual(r.entry);
    expect(Object.keys(en).slice(0, 4)).toEqual(['type', 'id', 'parentId', 'timestamp']);
    expect(en.parentId).toBe('00000004');
    expect(en.message.timestamp).toBe(Date.UTC(2026, 0, 1) + 1000);
    s = r.session;
    expect(s.leafId).toBe(en.id);
    expect(s.header?.id).toBe(h.id);
  });

  test('later appends write one line, chained to the leaf; the file parses back to the same entries', () => {
    let s: Session = newSession({ model: 'anthropic:claude-sonnet-4-5', title: 'Given', ...deps() });
    let file = '';
    const entries = [];
    for (const body of [
      user('hi'),
      assistant({ text: 'hello', stopReason: 'stop', spec: 'anthropic:claude-sonnet-4-5', api: 'anthropic-messages' }),
      custom('notice', 'ran out'),
    ]) {
      const r = append(s, body);
      file += decode(r.bytes);
      entries.push(r.entry);
      s = r.session;
    }
    expect(file.split('\n').filter(Boolean)).toHaveLength(5);
    const parsed = parse(file);
    expect(parsed.problems).toEqual([]);
    expect(parsed.header?.title).toBe('Given');
    expect(parsed.entries.slice(1)).toEqual(entries);
    expect(branch(parsed).map((x) => x.id)).toEqual(branch(s).map((x) => x.id));
    expect(context(branch(parsed))).toEqual(context(branch(s)));
    expect(s.entryLines).toEqual(parsed.entryLines);
  });

  test('ids are unique 8-hex: a colliding randomId is asked again', () => {
    let s = newSession({ model: 'a:b', uuidv7: () => 'u', ...deps(['aaaaaaaa', 'aaaaaaaa', 'aaaaaaaa', 'bbbbbbbb']) });
    s = append(s, user('x')).session;
    expect([...s.byId.keys()]).toEqual(['aaaaaaaa', 'bbbbbbbb']);
  });

  test('a randomId that never gives a fresh id is a typed error', () => {
    // The first append needs two ids (model_change and the entry); the second can never be fresh.
    const s = newSession({ model: 'a:b', now: () => new Date(0), randomId: () => 'cafecafe', uuidv7: () => 'u' });
    expect(() => append(s, user('x'))).toThrow(CoreError);
  });

  test('appending to a parsed v3 file continues from its leaf; a v1 file is refused', () => {
    const v3 = parse(jsonl(HEADER, { type: 'custom', customType: 'x', id: 'abcdabcd', parentId: null, timestamp: 't' }));
    const r = append(openSession(v3, deps()), user('more'));
    expect(decode(r.bytes).split('\n')).toHaveLength(2);
    expect(r.entry.parentId).toBe('abcdabcd');
    expect(r.session.entryLines.at(-1)).toBe(3);
    const v1 = parse(jsonl({ type: 'session', id: 's', timestamp: 't' }, { type: 'message', timestamp: 't', message: { role: 'user', content: 'x' } }));
    try {
      append(openSession(v1, deps()), user('x'));
      expect.unreachable();
    } catch (err) {
      expect((err as CoreError).code).toBe('append-v1');
    }
  });

  test('withLeaf before append starts a sibling branch', async () => {
    const { withLeaf } = await import('../../../src/core/index.ts');
    let s: Session = newSession({ model: 'a:b', uuidv7: () => 'u', ...deps() });
    s = append(s, user('one')).session;
    const first = s.leafId as string;
    s = append(s, user('two')).session;
    const r = append(withLeaf(s, first), user('other'));
    expect(r.entry.parentId).toBe(first);
    expect(branch(r.session).map((x) => x.id)).toEqual(['00000001', first, r.entry.id]);
  });

  test('no title when the first entry is not a user message', () => {
    const r = append(newSession({ model: 'a:b', ...deps() }), custom('aside', 'x'));
    expect(JSON.parse(decode(r.bytes).split('\n')[0]).title).toBeUndefined();
  });

  test('the derived title is the first line trimmed, at most 80 code points', () => {
    const long = '  ' + '🌍'.repeat(100) + '  \nsecond';
    const r = append(newSession({ model: 'a:b', ...deps() }), user(long));
    expect(Array.from(JSON.parse(decode(r.bytes).split('\n')[0]).title)).toHaveLength(80);
  });

  test('uuidv7From lays out time, version and variant', () => {
    const id = uuidv7From(0x0123456789ab, () => 'ffffffff');
    expect(id).toBe('01234567-89ab-7fff-bfff-ffffffffffff');
  });
});

describe('builders', () => {
  test('user: typed text, then per attachment an envelope and a picture part; fields for the chat', () => {
    const body = user('look', {
      attachments: [
        {
          kind: 'image',
          name: 'a "b" & <c>.png',
          path: '/w/a.png',
          mimeType: 'image/png',
          about: 'photo',
          image: { mimeType: 'image/png', data: new Uint8Array([1, 2, 3]) },
        },
        { kind: 'text', name: 'n.txt', path: '/w/n.txt', mimeType: 'text/plain', about: '2 lines', text: 'one\ntwo' },
      ],
      steering: true,
      ask: 'q1',
      from: 'node-a',
    });
    const msg = body.message as any;
    expect(msg.content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'text', text: '<attachment name="a &quot;b&quot; &amp; &lt;c>.png" type="image/png" path="/w/a.png">\nphoto\n</attachment>' },
      { type: 'image', data: 'AQID', mimeType: 'image/png' },
      { type: 'text', text: '<attachment name="n.txt" type="text/plain" path="/w/n.txt">\n2 lines\none\ntwo\n</attachment>' },
    ]);
    expect(msg.attachments).toEqual([
      { kind: 'image', name: 'a "b" & <c>.png', path: '/w/a.png', mimeType: 'image/png', about: 'photo' },
      { kind: 'text', name: 'n.txt', path: '/w/n.txt', mimeType: 'text/plain', about: '2 lines' },
    ]);
    expect(msg).toMatchObject({ role: 'user', steering: true, ask: 'q1', from: 'node-a' });
    expect(typed(msg)).toBe('look');
  });

  test('user with empty text writes no empty text part', () => {
    const msg = user('', { attachments: [{ kind: 'file', name: 'f', path: '/f', mimeType: 'application/zip', about: 'zip' }] }).message as any;
    expect(msg.content).toEqual([
      { type: 'text', text: attachmentEnvelope({ kind: 'file', name: 'f', path: '/f', mimeType: 'application/zip', about: 'zip' }) },
    ]);
    expect(typed(msg)).toBe('');
  });

  test('assistant: thinking, text, images, tool calls in that order; pi usage; error', () => {
    const msg = assistant({
      text: 'done',
      thinking: 'plan',
      thinkingSignature: 'sig',
      toolCalls: [{ id: 't1', name: 'bash', arguments: { cmd: 'ls' } }],
      images: [{ mimeType: 'image/png', data: 'QQ==' }],
      usage: { inputTokens: 100, outputTokens: 20, inputTokenDetails: { cacheReadTokens: 30, cacheWriteTokens: 10 }, cost: 0.5 },
      stopReason: 'error',
      error: 'boom',
      spec: 'openai_codex:gpt-5',
      api: 'openai-codex-responses',
    }).message as any;
    expect(msg.content.map((p: any) => p.type)).toEqual(['thinking', 'text', 'image', 'toolCall']);
    expect(msg.content[0]).toEqual({ type: 'thinking', thinking: 'plan', thinkingSignature: 'sig' });
    expect(msg).toMatchObject({
      role: 'assistant',
      provider: 'openai-codex',
      model: 'gpt-5',
      api: 'openai-codex-responses',
      stopReason: 'error',
      errorMessage: 'boom',
    });
    expect(msg.usage).toEqual({
      input: 60,
      output: 20,
      cacheRead: 30,
      cacheWrite: 10,
      totalTokens: 120,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.5 },
    });
  });

  test('toolResult: text then images; details kept when given; isError', () => {
    const msg = toolResult('t1', 'shot', 'ok', { images: [{ mimeType: 'image/jpeg', data: new Uint8Array([255]) }], details: { w: 1 }, isError: true })
      .message as any;
    expect(msg).toEqual({
      role: 'toolResult',
      toolCallId: 't1',
      toolName: 'shot',
      content: [
        { type: 'text', text: 'ok' },
        { type: 'image', data: '/w==', mimeType: 'image/jpeg' },
      ],
      details: { w: 1 },
      isError: true,
    });
    expect('details' in (toolResult('t', 'n', 'x', { details: null }).message as object)).toBe(false);
  });

  test('custom, compaction, modelChange shapes', () => {
    expect(custom('error', 'x')).toEqual({ type: 'custom_message', customType: 'rho.error', content: 'x', display: true });
    expect(custom('aside', 'x', { namespace: 'operator' }).customType).toBe('operator.aside');
    expect(compaction('S', 'k1', 1000, 200)).toEqual({
      type: 'compaction',
      summary: 'S',
      firstKeptEntryId: 'k1',
      tokensBefore: 1000,
      tokensAfter: 200,
      method: 'soft',
      fromExtension: false,
    });
    expect(modelChange('openrouter:anthropic/claude:beta')).toEqual({
      type: 'model_change',
      model: 'openrouter/anthropic/claude:beta',
      provider: 'openrouter',
      modelId: 'anthropic/claude:beta',
    });
  });

  test('every builder output validates once appended', () => {
    let s = newSession({ model: 'a:b', ...deps() });
    let file = '';
    for (const body of [
      user('x'),
      assistant({ text: 'y', stopReason: 'stop', provider: 'a', model: 'b' }),
      toolResult('c', 'n', 't'),
      custom('notice', 'n'),
      compaction('s', 'x', 1, 1),
      modelChange('a:c'),
    ]) {
      const r = append(s, body);
      s = r.session;
      file += decode(r.bytes);
    }
    expect(parse(file).problems).toEqual([]);
  });
});

describe('toBase64', () => {
  test('matches the standard encoding for every tail length and a large input', async () => {
    const { toBase64 } = await import('../../../src/core/index.ts');
    for (let n = 0; n < 8; n++) {
      const b = new Uint8Array(n).map((_, i) => (i * 97 + 13) & 255);
      expect(toBase64(b)).toBe(Buffer.from(b).toString('base64'));
    }
    const big = new Uint8Array(100_003).map((_, i) => (i * 31) & 255);
    expect(toBase64(big)).toBe(Buffer.from(big).toString('base64'));
  });
});
