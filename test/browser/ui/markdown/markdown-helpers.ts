// What the markdown tests share: a worker per test (stopped by the file's afterEach through
// `cleanups`), markdown with every construct the reader shows and hostile markdown, the two
// sanitizers, and the check that nothing in an element can run or load.
import { expect } from 'vitest';
import { fallbackSanitizer, platformSanitizer, type SanitizeHtml } from '../../../../src/ui/markdown/sanitize.ts';
import { freshRoot, removeRoot, startWorker } from '../../helpers.ts';

export const cleanups: Array<() => Promise<void> | void> = [];

export function worker() {
  const root = freshRoot();
  const w = startWorker(root);
  cleanups.push(() => removeRoot(root));
  cleanups.push(() => w.stop());
  return w.api;
}

/** Serializes a fragment (to compare structures). */
export function htmlOf(fragment: DocumentFragment): string {
  const div = document.createElement('div');
  div.append(fragment);
  return div.innerHTML;
}

/** What could run or load from inside an element. */
export function activeIn(root: ParentNode) {
  const all = [...root.querySelectorAll('*')];
  return {
    elements: all
      .filter((el) => /^(script|iframe|object|embed|img|svg|math|style|link|meta|base|form|input|video|audio|source)$/.test(el.localName))
      .map((el) => el.localName),
    handlers: all.flatMap((el) =>
      [...el.attributes]
        .filter((a) => a.name.startsWith('on') || a.name === 'style' || a.name === 'src' || a.name === 'srcset')
        .map((a) => `${el.localName}[${a.name}]`),
    ),
    links: [...root.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')].join(' ')),
  };
}

/** Nothing active, and every link (linkify makes plain https addresses links) goes to the web or mail, without opener or referrer. */
export function expectInert(root: ParentNode, label?: string) {
  const { elements, handlers, links } = activeIn(root);
  expect({ elements, handlers }, label).toEqual({ elements: [], handlers: [] });
  for (const link of links) expect(link, label).toMatch(/^(https?:\/\/|mailto:)\S* _blank noopener noreferrer$/);
}

/** Markdown with every construct the reader shows. */
export const NICE = [
  '# Title',
  '',
  'Some **bold**, *em*, ~~gone~~, `code` and https://example.com/x and <mail@example.com>.',
  '',
  '> a quote',
  '',
  '3. three',
  '4. four',
  '',
  '- a',
  '- b',
  '',
  '---',
  '',
  'line  ',
  'break',
  '',
  '| a | b |',
  '|---|---:|',
  '| 1 | 2 |',
  '',
  '![alt](https://example.com/i.png)',
  '',
  '```ts',
  'export const answer: number = 42; // why',
  '```',
  '',
  '```',
  'plain block',
  '```',
].join('\n');

export const HOSTILE = [
  'Raw HTML: <script>window.__pwned=1</script><img src=x onerror="window.__pwned=1"> <b onclick="x()">bold?</b>',
  '[click](javascript:window.__pwned=1) and [data](data:text/html,<script>1</script>) and [file](file:///etc/passwd) and [rel](/relative)',
  '![pic](https://evil.example/track.png) and <svg onload="window.__pwned=1"><script>1</script></svg>',
  '```html\n<script>window.__pwned=1</script>\n```',
  '<iframe src="https://evil.example"></iframe><style>body{display:none}</style><a href="javascript:1">x</a>',
];

/** Both ways the page sanitizes: Chromium has the platform's, so the fallback is forced by calling it directly. */
export const SANITIZERS: Array<[string, () => Promise<SanitizeHtml>]> = [
  ['Element.setHTML', async () => platformSanitizer()!],
  ['DOMPurify (fallback)', () => fallbackSanitizer()],
];
