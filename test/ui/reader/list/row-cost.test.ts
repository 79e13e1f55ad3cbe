// What a transcript row is guessed to cost before it is drawn (src/ui/reader/list/row-cost.ts): the
// virtual list fills a task with rows up to a time budget by it.
import { expect, test } from 'vitest';
import type { RenderItem } from '../../../../src/core/view/types.ts';
import { previewChars, rowCost } from '../../../../src/ui/reader/list/row-cost.ts';

const base = { index: 0, entryId: 'e', line: 1 };
const answer = (text: string) =>
  ({
    ...base,
    kind: 'assistant',
    blocks: [{ kind: 'text', text }],
    model: null,
    provider: null,
    stopReason: null,
    errorMessage: null,
    usage: null,
  }) as RenderItem;
const bash = (lines: number) => {
  const text = Array.from({ length: lines }, (_, i) => `line ${i} of the output, some forty characters`).join('\n');
  const tool = { callId: 'c', name: 'bash', args: '{}', command: 'ls', result: { entryId: 'r', text, isError: false, images: [], truncated: false } };
  return { ...base, kind: 'toolResult', tool } as RenderItem;
};

test('a long answer costs many times a short one; a folded result or a placeholder next to nothing', () => {
  expect(rowCost(answer('x'.repeat(10_000)))).toBeGreaterThan(5 * rowCost(answer('A short answer.')));
  expect(rowCost({ ...base, kind: 'folded', ownerIndex: 0 })).toBeLessThan(0.2);
  expect(rowCost(undefined)).toBeLessThan(0.2);
});

test('a long output counts only the lines shown before "N more lines"', () => {
  expect(rowCost(bash(5000))).toBeCloseTo(rowCost(bash(15)), 1);
  expect(rowCost(bash(14))).toBeGreaterThan(rowCost(bash(4)));
  expect(previewChars('a\nb\nc', 12)).toBe(5);
  expect(previewChars('a\n'.repeat(100), 2)).toBe(7);
});
