// An entry's searchable text (extract.ts entryDoc) is what core's readers give, capped: the text,
// then the readable thinking, then each tool call's name and arguments, each cap counted on the
// joined text (parts past a cap are not read, and the cap still falls where it did).
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { text, thinking, toolCalls } from '../../../src/core/index.ts';
import { entryDoc, OUTPUT_CAP, TEXT_CAP } from '../../../src/worker/search/extract.ts';

const cap = (s: string, n: number) => s.slice(0, n);

// The document's text as core's readers make it (the definition the single walk must keep).
function reference(m: Record<string, unknown>): string {
  if (m.role === 'user') return cap(text(m), TEXT_CAP);
  if (m.role === 'toolResult') return [m.toolName, cap(text(m), OUTPUT_CAP)].filter(Boolean).join('\n');
  const pieces = [cap(text(m), TEXT_CAP), cap(thinking(m), TEXT_CAP)];
  const budget = { left: OUTPUT_CAP };
  for (const c of toolCalls(m)) {
    pieces.push(c.name);
    for (const v of Object.values(c.arguments)) {
      if (typeof v !== 'string' || budget.left <= 0) continue;
      pieces.push(cap(v, budget.left));
      budget.left -= Math.min(v.length, budget.left);
    }
  }
  return pieces.filter(Boolean).join('\n');
}

const long = (c: string, n: number) => c.repeat(n);
const part = fc.oneof(
  fc.record({
    type: fc.constant('text'),
    text: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom(long('a', TEXT_CAP - 1), long('b', OUTPUT_CAP), long('c', 9000))),
  }),
  fc.record({ type: fc.constant('thinking'), thinking: fc.oneof(fc.string({ maxLength: 20 }), fc.constant(long('t', 9000))), redacted: fc.boolean() }),
  fc.record({
    type: fc.constant('toolCall'),
    id: fc.string({ maxLength: 4 }),
    name: fc.constantFrom('bash', 'read', ''),
    arguments: fc.dictionary(fc.constantFrom('path', 'command'), fc.oneof(fc.string({ maxLength: 12 }), fc.constant(long('p', 1500)))),
  }),
  fc.record({ type: fc.constant('image'), data: fc.constant('xx') }),
  fc.record({ type: fc.constant('text'), text: fc.integer() }),
);
const message = fc.record({
  role: fc.constantFrom('user', 'assistant', 'toolResult'),
  toolName: fc.constantFrom('bash', 'read'),
  content: fc.oneof(fc.array(part, { maxLength: 8 }), fc.string({ maxLength: 20 }), fc.constant(long('s', 20000))),
});

test('property: text, thinking, tool calls and outputs, capped, as core reads them', () => {
  fc.assert(
    fc.property(message, (m) => {
      const d = entryDoc({ type: 'message', id: 'e1', timestamp: '2026-01-02T03:04:05.000Z', message: m });
      expect(d?.text ?? '').toBe(reference(m));
    }),
    { numRuns: 500 },
  );
});

test('the cap falls on the joined text: parts beyond it are not read, the last one read is cut', () => {
  const m = { role: 'user', content: [long('a', TEXT_CAP - 3), 'bb', 'ccccc', 'never'].map((t) => ({ type: 'text', text: t })) };
  const d = entryDoc({ type: 'message', id: 'e', message: m });
  expect(d?.text).toBe(`${long('a', TEXT_CAP - 3)}\nbb`);
  expect(d?.text.length).toBe(TEXT_CAP);
  const tool = entryDoc({ type: 'message', id: 't', message: { role: 'toolResult', toolName: 'read', content: [{ type: 'text', text: long('o', 5000) }] } });
  expect(tool?.text).toBe(`read\n${long('o', OUTPUT_CAP)}`);
});
