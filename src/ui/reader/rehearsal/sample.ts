/**
 * The made-up session the reader rehearses on (rehearsal.tsx): one row of each common kind (a
 * question, an answer in markdown with a code block, thinking and a tool call with its output, a
 * command's output), so its rehearsal runs the code, matches the style rules and loads the fonts
 * a real session's first screen needs.
 */
import type { RenderItem, SessionView } from '../../../core/view/types.ts';

const AT = '2026-01-01T00:00:00.000Z';

const ANSWER = `## What changed

The parser now keeps **each line's bytes**, so an export gives back *exactly* what came in:

- the tree walk stays \`iterative\`;
- a [link](#/) and a list item.

\`\`\`ts
export function parseSession(text: string): Entry[] {
  return text.split('\\n').filter(Boolean).map((line) => JSON.parse(line));
}
\`\`\``;

const OUTPUT = Array.from({ length: 12 }, (_, i) => `src/core/file-${i}.ts:${i + 1}:  const value = read(line); // ${'x'.repeat(i * 4)}`).join('\n');

const ITEMS: RenderItem[] = [
  {
    kind: 'user',
    index: 0,
    entryId: 'r0',
    line: 2,
    timestamp: AT,
    text: 'Can the parser keep the bytes of every line?',
    attachments: [],
    images: [],
    steering: false,
    synthetic: false,
    ask: false,
  },
  {
    kind: 'assistant',
    index: 1,
    entryId: 'r1',
    line: 3,
    timestamp: AT,
    blocks: [
      { kind: 'thinking', text: 'Read the parser first.', redacted: false },
      { kind: 'text', text: ANSWER },
      {
        kind: 'tool',
        tool: {
          callId: 'c1',
          name: 'bash',
          args: '{\n  "command": "rg -n read src/core"\n}',
          command: 'rg -n read src/core',
          argsShown: true,
          result: { entryId: 'r2', text: OUTPUT, isError: false, images: [], truncated: false },
        },
      },
    ],
    model: 'model',
    provider: 'provider',
    stopReason: 'toolUse',
    errorMessage: null,
    usage: { input: 1200, output: 340, cacheRead: 0, cacheWrite: 0, totalTokens: 1540, cost: 0.0123 },
    alsoIds: ['r2'],
  },
  { kind: 'folded', index: 2, entryId: 'r2', line: 4, ownerIndex: 1 },
  {
    kind: 'bash',
    index: 3,
    entryId: 'r3',
    line: 5,
    timestamp: AT,
    command: 'npm test',
    output: OUTPUT,
    exitCode: 0,
    cancelled: false,
    truncated: false,
    excluded: false,
    language: 'bash',
    images: [],
  },
  {
    kind: 'assistant',
    index: 4,
    entryId: 'r4',
    line: 6,
    timestamp: AT,
    blocks: [{ kind: 'text', text: 'Done: every line keeps its bytes.' }],
    model: 'model',
    provider: 'provider',
    stopReason: 'stop',
    errorMessage: null,
    usage: null,
  },
];

/** The rehearsal's session view: what the worker's reply to an open looks like. */
export const REHEARSAL_VIEW: SessionView = {
  id: 'rehearsal',
  title: 'Rehearsal',
  cwd: '/',
  created: AT,
  version: 3,
  leafId: 'r4',
  defaultLeafId: 'r4',
  count: ITEMS.length,
  filter: 'all',
  entryCount: ITEMS.length,
  branchEntryCount: ITEMS.length,
  leafCount: 1,
  marks: null,
  entryIndex: null,
  tree: [{ firstId: 'r0', lastId: 'r4', depth: 0, count: ITEMS.length, preview: 'Can the parser keep the bytes of every line?', leafId: 'r4', active: true }],
  items: ITEMS,
  itemsStart: 0,
  problems: [],
  bytes: 0,
};
