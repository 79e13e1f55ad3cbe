// fixtures/omp/omp-executions.jsonl (test/gen/omp-executions.ts): every shape omp 18 stores around
// executions and @file mentions, and the omp-only entry types, read with no problem and each
// shown as what it is; the shapes nobody writes today read as unknown, and are not problems.
import { modelMessageSchema } from 'ai';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { addAgentMark, agentMark, branch, context, indexEnvelopes, parse, type Agent } from '../../src/core/index.ts';
import { openBranch, openSource, tokenChange, windowOf } from '../../src/core/view/index.ts';
import type { RenderItem } from '../../src/core/view/types.ts';
import { ompExecutionsFile } from '../gen/omp-executions.ts';

const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/omp/omp-executions.jsonl', import.meta.url)));
const items = (input: Uint8Array) => {
  const source = openSource('x', input);
  const b = openBranch(source, source.index.leafId);
  return windowOf(source, b, 'all', 0, b.branch.length);
};
const at = (list: RenderItem[], line: number) => list.find((i) => i.line === line)!;

test('the committed file is what the generator writes', () => {
  expect(new TextDecoder().decode(bytes)).toBe(ompExecutionsFile());
});

test('parses with no problem, validated and on the fast path; the model context is valid', () => {
  const s = parse(bytes);
  expect(s.problems).toEqual([]);
  expect(indexEnvelopes(bytes).problems).toEqual([]);
  for (const m of context(branch(s))) expect(modelMessageSchema.safeParse(m).success).toBe(true);
  const agent = s.records.reduce<Agent | null>((a, r) => addAgentMark(a, agentMark(r.value as Record<string, unknown>, r.kind)), null);
  expect(agent).toBe('omp');
});

test('each shape is shown as what it is; only the three shapes nobody writes are unknown', () => {
  const list = items(bytes);
  expect(list.filter((i) => i.kind === 'unknown').map((i) => (i.kind === 'unknown' ? i.type : ''))).toEqual(['future_entry_kind', 'message (turnStart)']);
  const mention = at(list, 9);
  expect(mention).toMatchObject({ kind: 'state', type: 'file mention (5 files)', summary: 'src/parse.ts, src/, logo.png, huge.log, bin/tool' });
  expect(mention.kind === 'state' && mention.text.split('\n')).toEqual([
    'src/parse.ts: 2 lines',
    'src/: 2 lines',
    'logo.png: image',
    'huge.log: not read (too large, 6,291,456 bytes)',
    'bin/tool: not read (binary, 12,288 bytes)',
  ]);
  expect(at(list, 10)).toMatchObject({ kind: 'bash', language: 'bash', exitCode: 1, truncated: true });
  expect(at(list, 11)).toMatchObject({ kind: 'bash', exitCode: null, cancelled: true });
  expect(at(list, 12)).toMatchObject({ kind: 'bash', excluded: true });
  const shot = at(list, 12);
  expect(shot.kind === 'bash' && shot.images).toHaveLength(1);
  expect(at(list, 13)).toMatchObject({ kind: 'bash', language: 'python', command: 'print(1)' });
  expect(at(list, 17)).toMatchObject({ kind: 'user', synthetic: true, text: 'The user prefers short answers.' });
  expect(at(list, 18)).toMatchObject({ kind: 'custom', customType: 'advisor' });
  expect(at(list, 19)).toMatchObject({ kind: 'state', type: 'model usage', text: 'judge · anthropic/claude-haiku-4-5 · 12 tokens' });
  const last = at(list, 29);
  expect(last.kind === 'assistant' && last.blocks.map((b) => b.kind)).toEqual(['text', 'other']);
});

test("a custom entry's row says what its data holds, not a bare '{'", () => {
  const list = items(new Uint8Array(readFileSync(new URL('../../fixtures/real/wichayutdew-dotfiles-arch-custom-entry.jsonl', import.meta.url))));
  const custom = list.find((i) => i.kind === 'state' && i.type === 'custom: plannotator');
  expect(custom).toMatchObject({ summary: 'phase: idle · lastSubmittedPath: null · savedState: null' });
  expect(custom?.kind === 'state' && custom.text.startsWith('{')).toBe(true);
});

test("a compaction's figures are grouped, and a missing one is said in words (pi writes no tokensAfter)", () => {
  expect(tokenChange(12345, null)).toBe('12,345 → not recorded');
  expect(tokenChange(120000, 9000)).toBe('120,000 → 9,000 tokens');
  expect(tokenChange(null, 900)).toBe('not recorded → 900 tokens');
  const s = items(new Uint8Array(readFileSync(new URL('../../fixtures/real/pi-mono-before-compaction-first-762-lines.jsonl', import.meta.url))));
  const compaction = s.find((i) => i.kind === 'compaction');
  expect(compaction?.kind === 'compaction' && tokenChange(compaction.tokensBefore, compaction.tokensAfter)).toMatch(/^\d{1,3}(,\d{3})+ → not recorded$/);
});
