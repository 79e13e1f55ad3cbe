// The streaming reply's markdown (src/ui/markdown/StreamingMarkdown.tsx) in Chromium: fed token by
// token, finished blocks keep their elements (not made again at every frame of the growing block),
// and the reply on screen is the whole text at every step.
import { h, render } from 'preact';
import { afterEach, expect, test } from 'vitest';
import { StreamingMarkdown } from '../../../../src/ui/markdown/StreamingMarkdown.tsx';
import { setMarkdownSource } from '../../../../src/ui/markdown/upgrade.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

/** Renders synchronously (preact's renders after a state change are queued; a root render is not). */
function mount() {
  const root = document.createElement('div');
  document.body.append(root);
  cleanups.push(() => {
    render(null, root);
    root.remove();
  });
  return { root, show: (text: string) => render(h(StreamingMarkdown, { text }), root) };
}

test('fed token by token: each finished block keeps its element, the growing one stays plain, the text shown is the whole reply', async () => {
  // A source that never answers: blocks stay plain, so their text is what was given.
  cleanups.push(setMarkdownSource(() => new Promise(() => undefined)));
  const { root, show } = mount();
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
    '\n\n- a',
    '\n- b',
    '\n\nend',
  ];
  let text = '';
  const seen: Element[] = [];
  for (const token of tokens) {
    text += token;
    show(text);
    const stream = root.querySelector('.md-stream')!;
    const finished = [...stream.children].filter((el) => !el.classList.contains('md-tail'));
    // The blocks already finished are the same elements as before (their text neither rendered nor laid out again).
    expect(finished.slice(0, seen.length)).toEqual(seen);
    seen.splice(0, seen.length, ...finished);
    expect(stream.textContent).toBe(text);
  }
  expect(seen.map((el) => el.textContent)).toEqual([
    '## Step one\n\n',
    'Some words **bold**\n\n',
    '```ts\nconst x = 1;\n\nconst y = 2;\n```\n\n',
    '- a\n- b\n\n',
  ]);
  expect(root.querySelector('.md-tail')?.textContent).toBe('end');
  // Another reply in the same place starts over.
  show('Other\n\nreply');
  expect([...root.querySelectorAll('.md-stream > .md:not(.md-tail)')].map((el) => el.textContent)).toEqual(['Other\n\n']);
  expect(root.querySelector('.md-stream')?.textContent).toBe('Other\n\nreply');
});
