import { describe, expect, test } from 'vitest';
import { type Blocks, cutBlocks, LINES_PER_PIECE } from '../../../src/ui/markdown/blocks.ts';

const tail = (text: string, cut: Blocks) => text.slice(cut.at);

describe('cutting streamed markdown into finished blocks', () => {
  test('a blank line ends a block; the text after the last one is still growing', () => {
    const text = 'First paragraph\nstill first.\n\n- one\n- two\n\n\nLast, growing';
    const cut = cutBlocks(text);
    expect(cut.done).toEqual(['First paragraph\nstill first.\n\n', '- one\n- two\n\n']);
    expect(tail(text, cut)).toBe('\nLast, growing');
  });

  test('blank lines inside a code fence do not end its block, nor does a shorter or other fence', () => {
    const text = '````ts\nconst a = 1;\n\n```\n~~~\n\nconst b = 2;\n````\n\nafter';
    const cut = cutBlocks(text);
    expect(cut.done).toEqual(['````ts\nconst a = 1;\n\n```\n~~~\n\nconst b = 2;\n````\n\n']);
    expect(tail(text, cut)).toBe('after');
    // An open fence keeps everything after it in the growing block.
    expect(cutBlocks('intro\n\n```\ncode\n\nmore').done).toEqual(['intro\n\n']);
  });

  test('fed token by token, the cut equals the cut of the whole text at every step, and finished blocks never change', () => {
    const tokens = [
      '## Step',
      ' one\n\nSome',
      ' words',
      ' **bold**',
      '\n\n```ts',
      '\nconst x',
      ' = 1;\n',
      '\n',
      'const y',
      ' = 2;\n```',
      '\n',
      '\n- a',
      '\n- b',
      '\n\nend',
    ];
    let text = '';
    let cut: Blocks | undefined;
    let finished: readonly string[] = [];
    for (const token of tokens) {
      text += token;
      cut = cutBlocks(text, cut);
      const fresh = cutBlocks(text);
      expect(cut.done).toEqual(fresh.done);
      expect(cut.at).toBe(fresh.at);
      expect(cut.done.join('') + tail(text, cut)).toBe(text);
      expect(cut.done.slice(0, finished.length)).toEqual(finished);
      finished = cut.done;
    }
    expect(finished).toEqual(['## Step one\n\n', 'Some words **bold**\n\n', '```ts\nconst x = 1;\n\nconst y = 2;\n```\n\n', '- a\n- b\n\n']);
  });

  test('a text that does not continue the one cut before is cut afresh', () => {
    const first = cutBlocks('one\n\ntwo\n\n');
    const other = cutBlocks('three\n\nfour', first);
    expect(other.done).toEqual(['three\n\n']);
    expect(tail('three\n\nfour', other)).toBe('four');
  });

  test('the growing block is gathered in pieces of whole lines, each the same string once made, the same at every step as cut from whole', () => {
    // A code block of 40 lines streamed a few characters at a time, then closed and followed by a paragraph.
    const code = Array.from({ length: 40 }, (_, i) => `const v${i} = ${i};`).join('\n');
    const reply = `Intro\n\n\`\`\`ts\n${code}\n\`\`\`\n\nAfter`;
    let cut: Blocks | undefined;
    const seen: string[] = [];
    for (let end = 1; end <= reply.length; end += 7) {
      const text = reply.slice(0, end);
      cut = cutBlocks(text, cut);
      const fresh = cutBlocks(text);
      expect([cut.pieces, cut.rest]).toEqual([fresh.pieces, fresh.rest]);
      // The block's text is its pieces and the lines after them.
      expect(cut.pieces.join('') + text.slice(cut.rest)).toBe(text.slice(cut.at));
      for (const piece of cut.pieces) expect(piece.split('\n').length - 1).toBe(LINES_PER_PIECE);
      // Pieces already made stay (while the block grows).
      if (cut.at === fresh.at && cut.pieces.length >= seen.length) expect(cut.pieces.slice(0, seen.length)).toEqual(seen);
      seen.splice(0, seen.length, ...cut.pieces);
    }
    // Fence line and 40 code lines: two whole pieces while the block grew; none once it finished.
    expect(cutBlocks(reply.slice(0, reply.indexOf('```\n\n'))).pieces).toHaveLength(2);
    expect(cut!.pieces).toEqual([]);
    expect(cut!.done).toEqual(['Intro\n\n', `\`\`\`ts\n${code}\n\`\`\`\n\n`]);
  });

  test('a step that adds no block nor piece keeps the same arrays (nothing to render again)', () => {
    const first = cutBlocks('one\n\ntwo\nthree');
    const next = cutBlocks('one\n\ntwo\nthree four\nfive', first);
    expect(next.done).toBe(first.done);
    expect(next.pieces).toBe(first.pieces);
  });
});
