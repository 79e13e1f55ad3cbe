// The streaming reply's markdown (src/ui/markdown/StreamingMarkdown.tsx) in Chromium: fed token by
// token, finished blocks keep their elements (not made again at every frame of the growing block),
// the growing block's finished lines too, the reply on screen is the whole text at every step, and
// nothing in it runs (plain text while it grows, the worker's markdown sanitized once finished).
import { h, render } from 'preact';
import { afterAll, afterEach, expect, test } from 'vitest';
import { Markdown } from '../../../../src/ui/markdown/Markdown.tsx';
import { StreamingMarkdown } from '../../../../src/ui/markdown/StreamingMarkdown.tsx';
import { setMarkdownSource } from '../../../../src/ui/markdown/upgrade.ts';
import { freshRoot, removeRoot, startWorker } from '../../helpers.ts';

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
    const finished = [...stream.querySelectorAll('.md:not(.md-tail)')];
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
  expect([...root.querySelectorAll('.md-stream .md:not(.md-tail)')].map((el) => el.textContent)).toEqual(['Other\n\n']);
  expect(root.querySelector('.md-stream')?.textContent).toBe('Other\n\nreply');
});

/** Markdown from the real worker (markdown-it, code coloured) for what StreamingMarkdown finishes: one worker for the file's tests. */
let shared: { root: string; stop(): void; render(texts: string[]): Promise<string[]> } | null = null;
afterAll(async () => {
  shared?.stop();
  if (shared) await removeRoot(shared.root);
});
function workerSource() {
  if (!shared) {
    const root = freshRoot();
    const w = startWorker(root);
    shared = { root, stop: w.stop, render: (texts) => w.api.renderMarkdown({ texts }) };
  }
  cleanups.push(setMarkdownSource(shared.render));
}

/** Until every markdown block under `root` shows its HTML (or stays plain for good). */
async function settled(root: Element) {
  // The worker's first answer waits for it to load its renderer (slow on a loaded machine).
  await expect.poll(() => [...root.querySelectorAll('.md:not(.md-tail)')].every((el) => el.getAttribute('data-md') === 'html'), { timeout: 30_000 }).toBe(true);
}

/** The text fed a few characters at a time (a token is rarely a line). */
function* pieces(text: string, size = 5) {
  for (let end = size; end < text.length + size; end += size) yield text.slice(0, end);
}

test('a long code block streamed in pieces: finished lines keep their elements, it looks as one plain block, and its markdown is that of the whole text', async () => {
  workerSource();
  const { root, show } = mount();
  const code = Array.from({ length: 50 }, (_, i) => `  const value${i} = compute(${i}, "x");`).join('\n');
  const reply = `Here is the change:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nDone.`;
  const plain = document.createElement('div');
  plain.className = 'md md-tail';
  document.body.append(plain);
  cleanups.push(() => plain.remove());
  let lines: Element[] = [];
  for (const text of pieces(reply)) {
    show(text);
    expect(root.querySelector('.md-stream')?.textContent).toBe(text);
    const tail = root.querySelector('.md-tail');
    const now = [...root.querySelectorAll('.md-tail > .md-lines')];
    // Lines already gathered in a piece are the same elements while the block grows.
    if (now.length >= lines.length) expect(now.slice(0, lines.length)).toEqual(lines);
    lines = now;
    // The same height as the growing block's text in one plain block (pieces change nothing on screen).
    if (tail) {
      plain.textContent = tail.textContent;
      expect(tail.getBoundingClientRect().height).toBe(plain.getBoundingClientRect().height);
    }
  }
  expect(lines.length).toBe(0);
  // Finished: the code block shown as markdown, the same HTML as its text rendered whole.
  await settled(root);
  const block = root.querySelectorAll('.md-stream .md:not(.md-tail)')[1];
  const whole = document.createElement('div');
  document.body.append(whole);
  cleanups.push(() => {
    render(null, whole);
    whole.remove();
  });
  render(h(Markdown, { text: `\`\`\`ts\n${code}\n\`\`\`\n\n` }), whole);
  await settled(whole);
  expect(block.innerHTML).toBe(whole.querySelector('.md')!.innerHTML);
  expect(block.querySelector('pre code')?.textContent).toBe(`${code}\n`);
});

test('script and event-handler payloads streamed in pieces never become live: shown as text while they grow, sanitized once finished', async () => {
  workerSource();
  const { root, show } = mount();
  const w = window as unknown as { __streamed?: number };
  delete w.__streamed;
  const filler = Array.from({ length: 20 }, (_, i) => `<b onmouseover="window.__streamed=${i}">line ${i}</b>`).join('\n');
  const reply = [
    'Look: <img src=x onerror="window.__streamed=1"> and <script>window.__streamed=2</script>',
    '',
    '<svg><script>window.__streamed=3</script></svg> <iframe srcdoc="<script>parent.__streamed=4</script>"></iframe>',
    '',
    '```html',
    filler,
    '<img src=y onerror="window.__streamed=5">',
    '```',
    '',
    `<details open ontoggle="window.__streamed=6">x</details> [a](javascript:window.__streamed=7)`,
    '',
    'end <img src=z onerror="window.__streamed=8">',
  ].join('\n');
  for (const text of pieces(reply, 3)) {
    show(text);
    expect(root.querySelector('.md-stream')?.textContent?.length).toBe(text.length);
    expect(root.querySelectorAll('script, img, svg, iframe, details, b, a[href^="javascript"], [onerror], [onload], [ontoggle]')).toHaveLength(0);
  }
  await settled(root);
  expectNothingLive(root);
  // Let anything that was queued to load or run have its chance, then check nothing did.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  expect(w.__streamed).toBeUndefined();
});

/** No element that runs or loads anything, no handler attribute, no script link. */
function expectNothingLive(root: Element) {
  const all = [...root.querySelectorAll('*')];
  expect(all.filter((el) => /^(script|iframe|object|embed|img|svg|math|style|link|details|form)$/.test(el.localName)).map((el) => el.localName)).toEqual([]);
  expect(all.flatMap((el) => [...el.attributes].filter((a) => a.name.startsWith('on') || a.name === 'srcdoc').map((a) => a.name))).toEqual([]);
  expect([...root.querySelectorAll('a')].filter((a) => !/^(https?:|mailto:)/.test(a.getAttribute('href') ?? ''))).toEqual([]);
}
