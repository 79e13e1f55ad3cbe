// What the reader shows, decided in the core: label rows name their entry, signature-only thinking is
// marked, and the viewer's list of a branch's pictures.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { imagesInBranch } from '../../../src/core/view/images.ts';
import { chooseLeaf, openBranch, windowOf } from '../../../src/core/view/session.ts';
import { openSource } from '../../../src/core/view/source.ts';

const welcome = readFileSync(new URL('../../../fixtures/samples/welcome.jsonl', import.meta.url));
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function items(text: string | Uint8Array, filter: 'all' | 'user' = 'all') {
  const source = openSource('s', text);
  const branch = openBranch(source, chooseLeaf(source, null));
  return { source, branch, all: windowOf(source, branch, filter, 0, 1e9) };
}

describe('label rows', () => {
  it('name the labelled entry by its line and first words, not its id', () => {
    const row = items(welcome).all.find((i) => i.kind === 'labelChange');
    expect(row?.kind).toBe('labelChange');
    if (row?.kind !== 'labelChange') return;
    expect(row.targetId).toBe('d0e9f2ab');
    expect(row.targetLine).toBe(11);
    expect(row.targetPreview).toMatch(/^Fixed\. parseHeight/);
  });

  it('say when the labelled entry is not in the file', () => {
    const text = `${[
      { type: 'session', version: 3, id: 's1', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/' },
      { type: 'label', id: 'l1', parentId: null, timestamp: '2026-01-01T00:00:00.000Z', targetId: 'gone', label: 'x' },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n')}\n`;
    const row = items(text).all[0];
    expect(row.kind === 'labelChange' && [row.targetLine, row.targetPreview]).toEqual([null, '']);
  });
});

describe('thinking blocks', () => {
  it('mark a block that carries a signature; an empty signed block is encrypted reasoning', () => {
    const text = `${[
      { type: 'session', version: 3, id: 's1', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/' },
      {
        type: 'message',
        id: 'a1',
        parentId: null,
        timestamp: '2026-01-01T00:00:00.000Z',
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: '', thinkingSignature: 'EqQB…' },
            { type: 'thinking', thinking: 'plain' },
          ],
          timestamp: 1,
        },
      },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n')}\n`;
    const row = items(text).all[0];
    expect(row.kind === 'assistant' && row.blocks).toEqual([
      { kind: 'thinking', text: '', redacted: false, signed: true },
      { kind: 'thinking', text: 'plain', redacted: false },
    ]);
  });
});

describe('pictures of a branch', () => {
  it('lists every showable picture in reading order, with the position of its item under the filter', () => {
    const msg = (id: string, parentId: string | null, role: string, content: unknown[]) => ({
      type: 'message',
      id,
      parentId,
      timestamp: '2026-01-01T00:00:00.000Z',
      message: { role, content, timestamp: 1, ...(role === 'toolResult' ? { toolCallId: 'c1', toolName: 'shot' } : {}) },
    });
    const img = { type: 'image', data: PNG, mimeType: 'image/png' };
    const text = `${[
      { type: 'session', version: 3, id: 's1', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/' },
      msg('u1', null, 'user', [{ type: 'text', text: 'two' }, img, { type: 'image', data: PNG, mimeType: 'image/svg+xml' }, img]),
      msg('a1', 'u1', 'assistant', [{ type: 'toolCall', id: 'c1', name: 'shot', arguments: {} }]),
      msg('r1', 'a1', 'toolResult', [img]),
      msg('u2', 'r1', 'user', [img]),
    ]
      .map((e) => JSON.stringify(e))
      .join('\n')}\n`;
    const { source, branch } = items(text);
    const list = imagesInBranch(source, branch, 'all').map((b) => [b.index, b.image.entryId, b.image.part]);
    // The SVG is not a picture the page shows; the tool's picture is shown in its call's row (a1).
    expect(list).toEqual([
      [0, 'u1', 1],
      [0, 'u1', 3],
      [1, 'r1', 0],
      [3, 'u2', 0],
    ]);
    expect(imagesInBranch(source, branch, 'user').map((b) => b.index)).toEqual([0, 0, 1]);
  });
});
