import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildSessionView, chooseLeaf, findInBranch, marksOf, openBranch, windowOf } from '../../../src/core/view/session.ts';
import { openSource } from '../../../src/core/view/source.ts';
import type { RenderItem } from '../../../src/core/view/types.ts';
import { HEADER, e, jsonl, m } from '../helpers.ts';

const welcome = readFileSync(new URL('../../../fixtures/samples/welcome.jsonl', import.meta.url));

function open(text: string | Uint8Array, leafId: string | null = null) {
  const reader = openSource('s', text);
  const branch = openBranch(reader, chooseLeaf(reader, leafId));
  const all = windowOf(reader, branch, 'all', 0, 1e9);
  return { reader, branch, all, items: all.filter((i) => i.kind !== 'folded') };
}

const kinds = (items: RenderItem[]) => items.map((i) => i.kind);

describe('render items of the sample session', () => {
  it('pairs tool calls with their results and folds the results into the call', () => {
    const { items } = open(welcome);
    const firstTurn = items.find((i) => i.entryId === 'd4e3f6a5');
    expect(firstTurn?.kind).toBe('assistant');
    if (firstTurn?.kind !== 'assistant') return;
    const tool = firstTurn.blocks.find((b) => b.kind === 'tool');
    expect(tool?.kind === 'tool' && tool.tool.path).toBe('src/parse.ts');
    expect(tool?.kind === 'tool' && tool.tool.result?.text).toContain('parseHeight');
    expect(firstTurn.alsoIds).toEqual(['e5f4a7b6']);
    expect(items.some((i) => i.entryId === 'e5f4a7b6')).toBe(false);
  });

  it('keeps a row for each folded result that points at its call (and nothing else to show)', () => {
    const { all } = open(welcome);
    const folded = all.find((i) => i.entryId === 'e5f4a7b6');
    expect(folded?.kind).toBe('folded');
    expect(folded?.kind === 'folded' && all[folded.ownerIndex].entryId).toBe('d4e3f6a5');
    expect(all.map((i) => i.index)).toEqual(all.map((_, n) => n));
  });

  it('shows the edit diff carried by the result, and thinking collapsed as a block', () => {
    const { items } = open(welcome);
    const edit = items.find((i) => i.entryId === 'f6a5b8c7');
    const block = edit?.kind === 'assistant' ? edit.blocks.find((b) => b.kind === 'tool') : undefined;
    expect(block?.kind === 'tool' && block.tool.result?.diff).toMatch(/^-/m);
    const first = items.find((i) => i.entryId === 'd4e3f6a5');
    expect(first?.kind === 'assistant' && first.blocks[0].kind).toBe('thinking');
  });

  it('marks the fork where another branch leaves, and the label on the labelled entry', () => {
    const { items } = open(welcome);
    const question = items.find((i) => i.entryId === 'c3d2e5f4');
    expect(question?.forks?.map((f) => f.leafId)).toEqual(['a3bc25de']);
    expect(items.find((i) => i.entryId === 'd0e9f2ab')?.label).toBe('the fix');
  });

  it('renders the other branch when its leaf is chosen', () => {
    const { items } = open(welcome, 'a3bc25de');
    expect(kinds(items).slice(-2)).toEqual(['assistant', 'notice']);
  });

  it('outlines the tree with the active path marked', () => {
    const { reader, branch } = open(welcome);
    const view = buildSessionView(reader, branch, 'all');
    expect(view.leafCount).toBe(2);
    expect(
      view.tree
        .filter((s) => s.leafId)
        .map((s) => s.leafId)
        .sort(),
    ).toEqual(['a3bc25de', 'd7e8f90a']);
    expect(view.tree.find((s) => s.leafId === 'd7e8f90a')?.active).toBe(true);
    expect(view.tree.find((s) => s.leafId === 'a3bc25de')?.active).toBe(false);
    expect(view.title).toBe('Fix the tide table parser');
    expect(view.marks).toBeNull(); // nothing but the envelopes was read to open it
    const marks = marksOf(reader, branch, 'all');
    expect(marks.user.length).toBe(5);
    expect(marks.error.length).toBe(2); // the failed node run and the interrupted push
  });

  it('filters: user only, labelled, no tools', () => {
    const { reader, branch } = open(welcome);
    expect(buildSessionView(reader, branch, 'user').count).toBe(5);
    expect(windowOf(reader, branch, 'labelled', 0, 10).map((i) => i.entryId)).toEqual(['d0e9f2ab']);
    const noTools = windowOf(reader, branch, 'no-tools', 0, 100);
    expect(noTools.every((i, n) => i.index === n)).toBe(true);
    expect(noTools.some((i) => i.kind === 'folded' || i.kind === 'toolResult' || i.kind === 'bash')).toBe(false);
    expect(noTools.some((i) => i.entryId === 'd6ef5801')).toBe(false); // a tool call and nothing else
  });

  it('shows attachments as chips with the typed text apart, and the picture as an image', () => {
    const { items } = open(welcome);
    const user = items.find((i) => i.entryId === '0a1b2c3d');
    expect(user?.kind === 'user' && user.text).toMatch(/^Here is this month's data/);
    expect(user?.kind === 'user' && user.attachments.map((a) => [a.name, a.text !== undefined, a.image?.showable])).toEqual([
      ['tides-2026-11.csv', true, undefined],
      ['chart.png', false, true],
    ]);
    expect(user?.kind === 'user' && user.images).toEqual([]);
  });

  it('marks steering, the errored tool result, and the interrupted turn with its error message', () => {
    const { items } = open(welcome);
    const steering = items.find((i) => i.entryId === '3d4e5f60');
    expect(steering?.kind === 'user' && steering.steering).toBe(true);
    const run = items.find((i) => i.entryId === '1b2c3d4e');
    const tool = run?.kind === 'assistant' ? run.blocks.find((b) => b.kind === 'tool') : undefined;
    expect(tool?.kind === 'tool' && tool.tool.result?.isError).toBe(true);
    const push = items.find((i) => i.entryId === 'c6d7e8f9');
    expect(push?.kind === 'assistant' && [push.stopReason, push.errorMessage]).toEqual(['aborted', 'Interrupted by user']);
    expect(push?.kind === 'assistant' && push.blocks[0].kind === 'tool' && push.blocks[0].tool.result).toBeUndefined();
  });

  it('finds text in tool output and arguments', () => {
    const { reader, branch } = open(welcome);
    expect(findInBranch(reader, branch, 'all', 'TEST FILES').map((h) => h.entryId)).toEqual(['b8c7d0e9']);
    expect(findInBranch(reader, branch, 'all', 'negative heights').length).toBeGreaterThan(0);
  });

  it('chooses the branch holding a deep-linked entry that is not on the asked branch', () => {
    const { reader } = open(welcome);
    expect(chooseLeaf(reader, 'd7e8f90a', 'f2ab14cd')).toBe('a3bc25de');
    expect(chooseLeaf(reader, null, 'c9d8e1fa')).toBe('d7e8f90a');
  });
});

describe('every entry type is shown', () => {
  const file = jsonl(
    HEADER,
    e('a1', null, 'model_change', { provider: 'openai', modelId: 'gpt-5' }),
    m('a2', 'a1', {
      role: 'user',
      content: [
        { type: 'text', text: 'see file' },
        { type: 'text', text: '<attachment name="a.txt" type="text/plain" path="/w/a.txt">\n12 bytes\nhello world\n</attachment>' },
      ],
      steering: true,
    }),
    m('a3', 'a2', { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'ls' } }], stopReason: 'toolUse' }),
    e('a4', 'a3', 'custom_message', { customType: 'rho.error', content: 'boom', display: true }),
    e('a5', 'a4', 'reset_boundary'),
    e('a6', 'a5', 'compaction', { summary: 'S', firstKeptEntryId: 'a4', tokensBefore: 100, tokensAfter: 10 }),
    e('a7', 'a6', 'weird_future_type', { x: 1 }),
    m('a8', 'a7', { role: 'bashExecution', command: 'pwd', output: '/w', exitCode: 1, cancelled: false, truncated: false }),
    e('a9', 'a8', 'custom', { customType: 'todo', data: { n: 1 } }),
  );

  it('gives each entry an item of its kind, the unknown one included', () => {
    const { items } = open(file);
    expect(kinds(items)).toEqual(['divider', 'user', 'assistant', 'notice', 'divider', 'compaction', 'unknown', 'bash', 'state']);
  });

  it('separates typed text from attachment envelopes and marks steering', () => {
    const user = open(file).items[1];
    expect(user.kind === 'user' && user.text).toBe('see file');
    expect(user.kind === 'user' && user.attachments[0]).toMatchObject({ name: 'a.txt', mimeType: 'text/plain', about: '12 bytes', text: 'hello world' });
    expect(user.kind === 'user' && user.steering).toBe(true);
  });

  it('shows a call that never got a result as such (no result) and where the compaction keeps from', () => {
    const { items } = open(file);
    const call = items[2];
    expect(call.kind === 'assistant' && call.blocks[0].kind === 'tool' && call.blocks[0].tool.result).toBeUndefined();
    const compaction = items[5];
    expect(compaction.kind === 'compaction' && compaction.firstKeptIndex).toBe(3);
  });

  it('keeps HTML in names as plain strings (the page renders them as text)', () => {
    const hostile = jsonl(
      HEADER,
      m('b1', null, {
        role: 'assistant',
        content: [{ type: 'toolCall', id: '<img src=x onerror=alert(1)>', name: '<script>alert(1)</script>', arguments: {} }],
      }),
    );
    const item = open(hostile).items[0];
    expect(item.kind === 'assistant' && item.blocks[0].kind === 'tool' && item.blocks[0].tool.name).toBe('<script>alert(1)</script>');
  });
});
