import { describe, expect, test } from 'vitest';
import {
  addUsage,
  attachments,
  displayTitle,
  fromPi,
  model,
  noticeKind,
  parse,
  text,
  thinking,
  toolCalls,
  usageTotal,
  toPi,
  totals,
  typed,
  usage,
  ZERO_TOTALS,
} from '../../../src/core/index.ts';
import { HEADER, e, jsonl, m } from '../helpers.ts';

describe('entry readers', () => {
  const msg = {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'a' },
      { type: 'thinking', thinking: 'secret', redacted: true },
      { type: 'text', text: 'one' },
      { type: 'toolCall', id: 't', name: 'n', arguments: { k: 1 } },
      { type: 'text', text: 'two' },
    ],
  };

  test('text, thinking, toolCalls of a message or its entry', () => {
    expect(text(msg)).toBe('one\ntwo');
    expect(text(m('x', null, msg))).toBe('one\ntwo');
    expect(text('plain')).toBe('plain');
    expect(text({ role: 'user', content: 'str' })).toBe('str');
    expect(thinking(msg)).toBe('a');
    expect(toolCalls(msg)).toEqual([{ id: 't', name: 'n', arguments: { k: 1 } }]);
    expect(text(null)).toBe('');
  });

  test('typed drops the attachment envelopes, counted from the end', () => {
    const env = '<attachment name="a" type="t" path="p">\nx\n</attachment>';
    const att = { kind: 'file', name: 'a', path: 'p', mimeType: 't', about: 'x' };
    expect(
      typed({
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: env },
        ],
        attachments: [att],
      }),
    ).toBe('hi');
    // Typed text that itself looks like an envelope stays typed when there are fewer attachments.
    expect(
      typed({
        role: 'user',
        content: [
          { type: 'text', text: env },
          { type: 'text', text: env },
        ],
        attachments: [att],
      }),
    ).toBe(env);
    expect(typed({ role: 'user', content: [{ type: 'text', text: env }] })).toBe(env);
    expect(attachments({ role: 'user', attachments: [att] })).toEqual([att]);
    expect(attachments({ role: 'user' })).toEqual([]);
  });

  test('noticeKind: the segment after the last dot, any namespace', () => {
    expect(noticeKind(e('a', null, 'custom_message', { customType: 'rho.error' }))).toBe('error');
    expect(noticeKind(e('a', null, 'custom_message', { customType: 'operator.x.aside' }))).toBe('aside');
    expect(noticeKind(e('a', null, 'custom_message', { customType: 'rho.other' }))).toBeNull();
    expect(noticeKind(e('a', null, 'custom_message', { customType: 'advisor' }))).toBeNull();
    expect(noticeKind(e('a', null, 'custom', { customType: 'rho.notice' }))).toBeNull();
    expect(noticeKind(m('a', null, { role: 'custom', customType: 'rho.notice' }))).toBe('notice');
  });
});

describe('model specs', () => {
  test('fromPi / toPi split at the first separator and keep the rest', () => {
    expect(fromPi('openai-codex/gpt-5')).toBe('openai_codex:gpt-5');
    expect(fromPi('openrouter/anthropic/claude-3:beta')).toBe('openrouter:anthropic/claude-3:beta');
    expect(toPi('openai_codex:gpt-5')).toBe('openai-codex/gpt-5');
    expect(toPi('openrouter:anthropic/claude-3:beta')).toBe('openrouter/anthropic/claude-3:beta');
    for (const s of ['amazon-bedrock/x.y:1', 'google/gemini-2.5', 'a/b/c']) expect(toPi(fromPi(s))).toBe(s);
  });

  test('model: last default-role model_change (both shapes), else last assistant, else null', () => {
    const asst = (p: string, mo: string) => m('x', null, { role: 'assistant', provider: p, model: mo, content: [] });
    expect(model([e('1', null, 'model_change', { provider: 'openai-codex', modelId: 'gpt-5' })])).toBe('openai_codex:gpt-5');
    expect(model([e('1', null, 'model_change', { model: 'anthropic/claude:high' }), asst('openai', 'gpt')])).toBe('anthropic:claude');
    expect(
      model([
        e('1', null, 'model_change', { model: 'a/b', role: 'default' }),
        e('2', null, 'model_change', { model: 'c/d', role: 'fallback' }),
        e('3', null, 'model_change', { model: 'e/f', role: 'smol' }),
      ]),
    ).toBe('a:b');
    expect(model([asst('google-vertex', 'claude@20250514')])).toBe('google_vertex:claude@20250514');
    expect(model([e('1', null, 'model_change', { model: 'a/b@upstream' })])).toBe('a:b');
    expect(model([])).toBeNull();
  });
});

describe('usage and totals', () => {
  test('usage: input excludes cached tokens; totalTokens sums four buckets; null gives zeros', () => {
    expect(usage({ inputTokens: 100, outputTokens: 7, cachedInputTokens: 40 })).toMatchObject({
      input: 60,
      output: 7,
      cacheRead: 40,
      cacheWrite: 0,
      totalTokens: 107,
    });
    expect(usage({ inputTokens: 100, inputTokenDetails: { noCacheTokens: 50, cacheReadTokens: 30, cacheWriteTokens: 20 } })).toMatchObject({
      input: 50,
      totalTokens: 100,
    });
    expect(usage({ outputTokens: 1, cost: { input: 0.1, output: 0.2 } }).cost).toEqual({
      input: 0.1,
      output: 0.2,
      cacheRead: 0,
      cacheWrite: 0,
      total: 0.30000000000000004,
    });
    expect(usage(null)).toEqual({
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    });
  });

  test('totals sums assistant usage on the branch; addUsage one at a time', () => {
    const a = (tokens: number, out: number, cost: number) =>
      m('x', null, {
        role: 'assistant',
        content: [],
        usage: { input: tokens - out, output: out, cacheRead: 0, cacheWrite: 0, totalTokens: tokens, cost: { total: cost } },
      });
    const v1style = m('y', null, { role: 'assistant', content: [], usage: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 } });
    const b = [a(10, 2, 0.5), m('u', null, { role: 'user', content: 'x', usage: { totalTokens: 99 } }), a(5, 1, 0.25), v1style];
    expect(totals(b)).toEqual({ tokens: 25, output: 5, cost: 0.75 });
    expect(addUsage(ZERO_TOTALS, usage({ inputTokens: 3, outputTokens: 4, cost: 1 }))).toEqual({ tokens: 7, output: 4, cost: 1 });
  });

  test("usageTotal is pi's rule: totalTokens when set, else the four buckets (also when it is 0)", () => {
    expect(usageTotal({ input: 3, output: 191, cacheRead: 0, cacheWrite: 1684 })).toBe(1878);
    expect(usageTotal({ input: 3, output: 191, cacheRead: 0, cacheWrite: 1684, totalTokens: 0 })).toBe(1878);
    expect(usageTotal({ input: 1, output: 1, cacheRead: 1, cacheWrite: 1, totalTokens: 10 })).toBe(10);
    expect(usageTotal({ input: 'x', output: null })).toBe(0);
    expect(usageTotal(null)).toBe(0);
    const zeroTotal = m('z', null, { role: 'assistant', content: [], usage: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, totalTokens: 0 } });
    expect(totals([zeroTotal]).tokens).toBe(10);
  });
});

describe('displayTitle', () => {
  const slot = { type: 'title', v: 1, title: 'Slot', updatedAt: 'u', pad: ' ' };
  test('slot → last title_change → last session_info.name → header title → null', () => {
    const tc = e('1', null, 'title_change', { title: 'Changed', source: 'user' });
    const si = e('2', '1', 'session_info', { name: ' Named ' });
    expect(displayTitle(parse(jsonl(slot, { ...HEADER, title: 'H' }, tc, si)))).toBe('Slot');
    expect(displayTitle(parse(jsonl({ ...HEADER, title: 'H' }, tc, si)))).toBe('Changed');
    expect(displayTitle(parse(jsonl({ ...HEADER, title: 'H' }, si)))).toBe('Named');
    expect(displayTitle(parse(jsonl({ ...HEADER, title: 'H' }, si, e('3', '2', 'session_info', { name: '' }))))).toBe('H');
    expect(displayTitle(parse(jsonl(HEADER)))).toBeNull();
  });
});
