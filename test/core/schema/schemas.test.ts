import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  AssistantMessageSchema,
  ENTRY_SCHEMAS,
  EntrySchema,
  HeaderSchema,
  MessageSchema,
  TitleSlotSchema,
  UsageSchema,
  parse,
  schemaFor,
} from '../../../src/core/index.ts';
import { HEADER, e, m } from '../helpers.ts';

const real = (name: string) => parse(new Uint8Array(readFileSync(new URL(`../../../fixtures/real/${name}`, import.meta.url))));

describe('schemas', () => {
  test('every entry and header of the real fixtures validates', () => {
    for (const name of ['pi-mono-large-session.jsonl', 'pi-mono-before-compaction-first-762-lines.jsonl', 'pi-messenger-crew-planner-header-only.jsonl']) {
      const s = real(name);
      expect(s.problems.filter((p) => p.code === 'invalid-entry')).toEqual([]);
      for (const entry of s.entries) expect(EntrySchema.safeParse(entry).success).toBe(true);
      expect(HeaderSchema.safeParse(s.header).success).toBe(true);
    }
  });

  test('loose: unknown fields pass through and are kept in the output', () => {
    const entry = { ...e('a', null, 'label', { targetId: 'x' }), extra: { deep: 1 } };
    expect(EntrySchema.parse(entry)).toEqual(entry);
    const msg = { role: 'user', content: 'x', mystery: [1] };
    expect(MessageSchema.parse(msg)).toEqual(msg);
  });

  test('unknown entry types and roles pass with a valid envelope', () => {
    expect(EntrySchema.safeParse(e('a', null, 'brand_new_type')).success).toBe(true);
    expect(EntrySchema.safeParse(m('a', null, { role: 'futureRole' })).success).toBe(true);
    expect(EntrySchema.safeParse({ type: 'brand_new_type' }).success).toBe(false);
  });

  test('known shapes are checked', () => {
    expect(EntrySchema.safeParse(e('a', null, 'compaction', { summary: 's', firstKeptEntryId: 'x', tokensBefore: '5' })).success).toBe(false);
    expect(EntrySchema.safeParse(e('a', null, 'custom_message', { customType: 'x', content: 5, display: true })).success).toBe(false);
    expect(
      AssistantMessageSchema.safeParse({ role: 'assistant', content: [{ type: 'toolCall', id: 1 }], provider: 'p', model: 'm', stopReason: 'stop' }).success,
    ).toBe(false);
    expect(
      AssistantMessageSchema.safeParse({ role: 'assistant', content: [{ type: 'novelPart', x: 1 }], provider: 'p', model: 'm', stopReason: 'stop' }).success,
    ).toBe(true);
    expect(UsageSchema.safeParse({ input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }).success).toBe(true);
    expect(TitleSlotSchema.safeParse({ type: 'title', v: 1, title: 't', updatedAt: 'u', pad: '' }).success).toBe(true);
    expect(HeaderSchema.safeParse({ ...HEADER, id: 5 }).success).toBe(false);
  });

  test('schemaFor dispatches on type, the envelope for unknown ones', () => {
    expect(schemaFor('label')).toBe(ENTRY_SCHEMAS.label);
    expect(schemaFor('nope').safeParse(e('a', null, 'nope')).success).toBe(true);
    expect(schemaFor(undefined).safeParse({}).success).toBe(false);
  });

  test('omp-only entries validate in their documented shapes', () => {
    const omp = [
      e('1', null, 'model_change', { model: 'anthropic/claude', role: 'smol', resolvedModelIsFallback: false }),
      e('2', null, 'thinking_level_change', { thinkingLevel: null, configured: null }),
      e('3', null, 'title_change', { title: 't', source: 'auto' }),
      e('4', null, 'reset_boundary'),
      e('5', null, 'model_usage', {
        purpose: 'title',
        api: 'a',
        provider: 'p',
        model: 'm',
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 },
        stopReason: 'stop',
      }),
      e('6', null, 'service_tier_change', { serviceTier: { openai: 'flex' } }),
      e('7', null, 'ttsr_injection', { injectedRules: ['r'] }),
      e('8', null, 'session_init', { systemPrompt: 's', task: 't', tools: ['read'] }),
      e('9', null, 'mode_change', { mode: 'plan' }),
      e('10', null, 'credential_pin', { provider: 'p', hash: 'h' }),
      m('11', null, {
        role: 'assistant',
        content: [
          { type: 'redactedThinking', data: 'x' },
          { type: 'fallback', from: {}, to: {} },
        ],
        provider: 'p',
        model: 'm',
        stopReason: 'error',
        retryRecovery: { kind: 'auto-retry', status: 'recovered' },
      }),
      m('12', null, { role: 'developer', content: 'd' }),
      m('13', null, { role: 'fileMention', files: [{ path: 'a', content: 'b' }] }),
      m('14', null, { role: 'pythonExecution', code: 'x', output: '', cancelled: false, truncated: false }),
    ];
    for (const entry of omp) expect([entry.id, EntrySchema.safeParse(entry).success]).toEqual([entry.id, true]);
  });
  test('an entry type checked many times in a file gets the same verdicts on its first lines as on its last', () => {
    // Odd model_change entries, valid and invalid in turn, enough for the type to be checked both
    // before and after its schema is compiled; the expected verdicts come from the plain schema.
    const entries = Array.from({ length: 300 }, (_, i) =>
      e(`mc${i}`, i ? `mc${i - 1}` : null, 'model_change', i % 2 ? { provider: i, modelId: 'x' } : { provider: 'p', modelId: `m${i}`, extra: [i] }),
    );
    const text = [HEADER, ...entries].map((x) => JSON.stringify(x)).join('\n') + '\n';
    const s = parse(new TextEncoder().encode(text));
    const flagged = s.problems.filter((p) => p.code === 'invalid-entry');
    const expected = entries.flatMap((x, i) => (EntrySchema.safeParse(x).success ? [] : [i + 2]));
    expect(expected.length).toBe(150);
    expect(flagged.map((p) => p.line)).toEqual(expected);
    expect(new Set(flagged.map((p) => p.message)).size).toBe(1);
  });
});
