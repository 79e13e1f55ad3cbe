import { describe, expect, test } from 'vitest';
import { type Blocks, cutBlocks } from '../../../src/ui/markdown/blocks.ts';

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
    let finished: string[] = [];
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
});
