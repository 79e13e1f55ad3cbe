import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { branch, displayTitle, leaves, model, parse, totals } from '../../../src/core/index.ts';
import { digestSession } from '../../../src/core/read/digest.ts';
import { bytes, headerLine, messageLine } from '../../storage/helpers.ts';

const realDir = new URL('../../../fixtures/real/', import.meta.url);
const realFiles = readdirSync(realDir).filter((f) => f.endsWith('.jsonl'));

// Feeds bytes in small, odd-sized chunks so lines and UTF-8 sequences straddle chunk edges.
async function* chunked(b: Uint8Array, size = 977) {
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}

/** What the index should hold according to the core's whole-file parse. */
function expected(b: Uint8Array) {
  const s = parse(b);
  const active = branch(s);
  return {
    isSession: s.isSession,
    title: displayTitle(s),
    entryCount: s.entries.length,
    branchCount: leaves(s).length,
    model: model(active),
    totals: totals(active),
    problems: s.problems.length,
    leafId: s.leafId,
  };
}

async function actual(b: Uint8Array, size = 977) {
  const { digest, tree } = await digestSession(chunked(b, size));
  return {
    isSession: digest.isSession,
    title: digest.title,
    entryCount: digest.entryCount,
    branchCount: digest.branchCount,
    model: digest.model,
    totals: digest.totals,
    problems: digest.problems,
    leafId: tree.leafId,
  };
}

describe('the digest agrees with the core parse', () => {
  test.each(realFiles)('real fixture %s', async (name) => {
    const b = new Uint8Array(readFileSync(new URL(name, realDir)));
    expect(await actual(b)).toEqual(expected(b));
    // Chunks of many whole lines (their ASCII runs decoded at once) and the whole file as one chunk.
    expect(await actual(b, 64 * 1024 + 7)).toEqual(expected(b));
    expect(await actual(b, b.length + 1)).toEqual(expected(b));
  });

  test('problems, branches, title slot, torn tail, multi-byte text across chunk edges', async () => {
    const slot = JSON.stringify({ type: 'title', v: 1, title: 'Slot títle ✓', source: 'user', updatedAt: '2026-01-01T00:00:00.000Z', pad: '' });
    const text = [
      slot,
      headerLine('s1'),
      messageLine('a1', null, 'user', 'héllo wörld ✓✓✓'.repeat(50)),
      messageLine('a2', 'a1', 'assistant', 'one'),
      messageLine('a3', 'a1', 'assistant', 'two (a sibling branch)'),
      'not json',
      '[1,2]',
      messageLine('a2', 'a3', 'user', 'duplicate id'),
      messageLine('a4', 'zz', 'user', 'orphan'),
      JSON.stringify({ type: 'model_change', id: 'm1', parentId: 'a4', timestamp: 't', model: 'openai/gpt-5' }),
      JSON.stringify({ type: 'title_change', id: 't1', parentId: 'm1', timestamp: 't', title: 'Changed', source: 'user' }),
      '{"type":"message","id":"torn',
    ].join('\n');
    const b = bytes(text);
    const got = await actual(b);
    expect(got).toEqual(expected(b));
    expect(got.problems).toBeGreaterThanOrEqual(4);
    expect(got.title).toBe('Slot títle ✓');
  });

  test('entries that fail their schema: the count, and the first problem with its failing fields, as the parse has them', async () => {
    const bad = (id: string, parent: string | null) =>
      JSON.stringify({ type: 'message', id, parentId: parent, timestamp: 't', message: { role: 'assistant', content: [{ type: 'text', text: id }] } });
    const b = bytes([headerLine('s1'), messageLine('a1', null, 'user', 'hi'), bad('a2', 'a1'), bad('a3', 'a2'), bad('a4', 'a3'), ''].join('\n'));
    const parsed = parse(b);
    const { digest } = await digestSession(chunked(b));
    expect(digest.problems).toBe(3);
    expect(parsed.problems.map((p) => p.code)).toEqual(['invalid-entry', 'invalid-entry', 'invalid-entry']);
    expect(digest.firstProblem).toEqual(parsed.problems[0]);
    // The fields that failed are named (the import report's reason).
    expect(digest.firstProblem?.message).toMatch(/^message does not match its schema: message\./);
  });

  test('v1 files get the same deterministic ids and linear chain', async () => {
    const text =
      [
        JSON.stringify({ type: 'session', id: 'old', timestamp: '2025-01-01T00:00:00.000Z', cwd: '/x' }),
        JSON.stringify({ type: 'message', timestamp: 't', message: { role: 'user', content: 'hi', timestamp: 1 } }),
        JSON.stringify({ type: 'message', timestamp: 't', message: { role: 'hookMessage', customType: 'x', content: 'y', display: true, timestamp: 1 } }),
      ].join('\n') + '\n';
    const b = bytes(text);
    expect(await actual(b)).toEqual(expected(b));
  });

  test('not a session: no header, reported on its line', async () => {
    const { digest } = await digestSession(chunked(bytes('{"type":"message","id":"x"}\n')));
    expect(digest.isSession).toBe(false);
    expect(digest.firstProblem?.code).toBe('no-header');
  });

  test('first user message and omp blob refs', async () => {
    const sha = 'ab'.repeat(32);
    const text =
      [
        headerLine('s2'),
        messageLine('a1', null, 'user', '  Fix   the\nbuild  '),
        JSON.stringify({
          type: 'message',
          id: 'a2',
          parentId: 'a1',
          timestamp: 't',
          message: {
            role: 'toolResult',
            toolCallId: 'c',
            toolName: 'read',
            content: [{ type: 'image', data: `blob:sha256:${sha}`, mimeType: 'image/png' }],
            isError: false,
            timestamp: 1,
          },
        }),
      ].join('\n') + '\n';
    const scan = await digestSession(chunked(bytes(text), 13));
    expect(scan.digest.firstMessage).toBe('Fix the build');
    expect([...scan.blobRefs]).toEqual([sha]);
  });
});
