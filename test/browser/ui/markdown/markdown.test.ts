// The reader's markdown path in Chromium: the worker's renderMarkdown (markdown-it, raw HTML off,
// code coloured), the page's sanitizer (sanitize.ts: the browser's HTML Sanitizer, and DOMPurify
// where it is missing — both run here against the same contract), the time-sliced upgrade
// (upgrade.ts) and its scheduler (scheduler.ts, driven here with a fake clock and hand-run tasks).
import { afterEach, describe, expect, test } from 'vitest';
import { fallbackSanitizer, loadSanitizer, platformSanitizer, type SanitizeHtml } from '../../../../src/ui/markdown/sanitize.ts';
import { createSliceScheduler, type SliceJob } from '../../../../src/ui/markdown/scheduler.ts';
import { setMarkdownSource, showMarkdown } from '../../../../src/ui/markdown/upgrade.ts';
import { freshRoot, removeRoot, startWorker } from '../../helpers.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function worker() {
  const root = freshRoot();
  const w = startWorker(root);
  cleanups.push(() => removeRoot(root));
  cleanups.push(() => w.stop());
  return w.api;
}

/** Serializes a fragment (to compare structures). */
function htmlOf(fragment: DocumentFragment): string {
  const div = document.createElement('div');
  div.append(fragment);
  return div.innerHTML;
}

/** What could run or load from inside an element. */
function activeIn(root: ParentNode) {
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
function expectInert(root: ParentNode, label?: string) {
  const { elements, handlers, links } = activeIn(root);
  expect({ elements, handlers }, label).toEqual({ elements: [], handlers: [] });
  for (const link of links) expect(link, label).toMatch(/^(https?:\/\/|mailto:)\S* _blank noopener noreferrer$/);
}

/** Markdown with every construct the reader shows. */
const NICE = [
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

const HOSTILE = [
  'Raw HTML: <script>window.__pwned=1</script><img src=x onerror="window.__pwned=1"> <b onclick="x()">bold?</b>',
  '[click](javascript:window.__pwned=1) and [data](data:text/html,<script>1</script>) and [file](file:///etc/passwd) and [rel](/relative)',
  '![pic](https://evil.example/track.png) and <svg onload="window.__pwned=1"><script>1</script></svg>',
  '```html\n<script>window.__pwned=1</script>\n```',
  '<iframe src="https://evil.example"></iframe><style>body{display:none}</style><a href="javascript:1">x</a>',
];

/** Both ways the page sanitizes: Chromium has the platform's, so the fallback is forced by calling it directly. */
const SANITIZERS: Array<[string, () => Promise<SanitizeHtml>]> = [
  ['Element.setHTML', async () => platformSanitizer()!],
  ['DOMPurify (fallback)', () => fallbackSanitizer()],
];

test('Chromium has the HTML Sanitizer, and the page uses it', async () => {
  expect(platformSanitizer()).not.toBeNull();
  const chosen = await loadSanitizer();
  const div = document.createElement('div');
  div.append(chosen('<p><b>x</b></p>'));
  expect(div.innerHTML).toBe('<p>x</p>');
});

describe.each(SANITIZERS)('the page sanitizer: %s', (_name, load) => {
  test('only markdown-it elements survive, each with its own attributes; refused formatting leaves its text', async () => {
    const sanitizeToFragment = await load();
    const html = [
      '<p>ok <b onclick="x()">bold?</b> <strong>strong</strong> <em onclick="x()">em</em> <a href="https://example.com/a" onclick="x()" style="color:red">web</a>',
      '<a href="javascript:alert(1)">js link</a> <a href=" JAVASCRIPT:alert(1)">js2</a> <a href="mailto:a@b.c">mail</a></p>',
      '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1"><svg><script>1</script><a href="https://x.y">in svg</a></svg>',
      '<iframe src="https://evil.example"></iframe><style>p{}</style><form action="https://evil.example"><input value="v"></form>',
      '<pre><code class="language-ts" onclick="x()"><span class="hljs-keyword">const</span> <span class="hljs-title function_">f</span> <span class="evil">e</span></code></pre>',
      '<ol start="3" type="a"><li>three</li></ol><span class="md-image">[pic: https://x.y/p.png]</span><!-- comment --><table><tbody><tr><td style="x">c</td></tr></tbody></table>',
      // Element names that are names of Object's own functions must not slip through a lookup table.
      '<constructor onclick="x()">c1</constructor><tostring onmouseover="x()">c2</tostring><__proto__ onfocus="x()">c3</__proto__><hasownproperty src="x">c4</hasownproperty>',
    ].join('');
    const fragment = sanitizeToFragment(html);
    const div = document.createElement('div');
    div.append(fragment);
    expect(activeIn(div)).toEqual({
      elements: [],
      handlers: [],
      links: ['https://example.com/a _blank noopener noreferrer', 'mailto:a@b.c _blank noopener noreferrer'],
    });
    expect(div.querySelector('strong')?.textContent).toBe('strong');
    expect(div.querySelector('em')?.attributes.length).toBe(0);
    expect(div.querySelector('code')?.className).toBe('language-ts');
    expect(div.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(div.querySelector('.hljs-title')?.className).toBe('hljs-title function_');
    expect(div.querySelector('.evil')).toBeNull();
    expect(div.querySelector('ol')?.getAttribute('start')).toBe('3');
    expect(div.querySelector('ol')?.hasAttribute('type')).toBe(false);
    expect(div.querySelector('.md-image')?.textContent).toBe('[pic: https://x.y/p.png]');
    expect(div.querySelector('td')?.attributes.length).toBe(0);
    expect(div.innerHTML).not.toContain('<!--');
    // Refused links and formatting are gone but what they said stays readable, as text; what is
    // not text to read (a script's code, an SVG) goes whole, as both sanitizers do it.
    expect(div.textContent).toContain('js link');
    expect(div.textContent).toContain('js2');
    expect(div.textContent).toContain('bold?');
    expect(div.querySelector('b')).toBeNull();
    expect(div.textContent).not.toContain('window.__pwned=1');
    expect((window as unknown as { __pwned?: unknown }).__pwned).toBeUndefined();
  });

  test("markdown-it's output passes untouched, and hostile markdown stays inert", async () => {
    const sanitizeToFragment = await load();
    const api = worker();
    const htmls = await api.renderMarkdown({ texts: [NICE, ...HOSTILE] });
    for (const [i, html] of htmls.entries()) {
      const template = document.createElement('template');
      template.innerHTML = html;
      expect(htmlOf(sanitizeToFragment(html)), i ? HOSTILE[i - 1] : 'nice').toBe(template.innerHTML);
    }
  });
});

describe("the worker's renderMarkdown", () => {
  test('markdown-it output has every construct the reader shows', async () => {
    const api = worker();
    const text = NICE;
    const [html] = await api.renderMarkdown({ texts: [text] });
    // No inline style: the CSP (style-src 'self') would refuse it with a console error.
    expect(html).not.toContain('style=');
    const template = document.createElement('template');
    template.innerHTML = html;
    for (const selector of [
      'h1',
      'strong',
      'em',
      's',
      'code',
      'blockquote',
      'ol[start="3"]',
      'ul',
      'hr',
      'br',
      'table td',
      'table td.md-align-right',
      'span.md-image',
      'a[href="https://example.com/x"]',
      'a[href="mailto:mail@example.com"]',
      'pre code.language-ts .hljs-keyword',
    ]) {
      expect(template.content.querySelector(selector), selector).not.toBeNull();
    }
  });

  test('hostile markdown comes back inert', async () => {
    const api = worker();
    const htmls = await api.renderMarkdown({ texts: HOSTILE });
    expect(htmls).toHaveLength(HOSTILE.length);
    for (const [i, html] of htmls.entries()) {
      const template = document.createElement('template');
      template.innerHTML = html;
      // Already inert from the worker (the page's sanitizer changes nothing of it, tested above).
      expectInert(template.content, HOSTILE[i]);
      expect(template.content.querySelector('a[href*="javascript" i], a[href^="data:"], a[href^="file:"], a[href^="/"]'), HOSTILE[i]).toBeNull();
    }
    // The raw HTML is there to read, as text.
    const first = document.createElement('template');
    first.innerHTML = htmls[0];
    expect(first.content.textContent).toContain('<script>window.__pwned=1</script>');
  });

  test('a text past the size limit comes back empty (the page shows it plain); a bad call is refused', async () => {
    const api = worker();
    expect(await api.renderMarkdown({ texts: ['**x**'.repeat(9000), '**y**'] })).toEqual(['', '<p><strong>y</strong></p>\n']);
    await expect(api.renderMarkdown({ texts: 'nope' as unknown as string[] })).rejects.toMatchObject({ code: 'invalid-input' });
  });
});

describe('the time-sliced upgrade (upgrade.ts)', () => {
  function host() {
    const el = document.createElement('div');
    document.body.append(el);
    cleanups.push(() => el.remove());
    return el;
  }

  test('plain text at once, then the worker-made markdown; hostile text never becomes active', async () => {
    const api = worker();
    let calls = 0;
    cleanups.push(
      setMarkdownSource((texts) => {
        calls++;
        return api.renderMarkdown({ texts });
      }),
    );
    const nice = host();
    const text = `Some **bold** and a [link](https://example.com/${Math.random()}).\n\n\`\`\`ts\nconst x = 1;\n\`\`\``;
    showMarkdown(nice, text);
    expect(nice.dataset.md).toBe('pending');
    expect(nice.textContent).toBe(text);
    const bad = HOSTILE.map(() => host());
    bad.forEach((el, i) => showMarkdown(el, `${HOSTILE[i]} ${Math.random()}`));
    await expect.poll(() => [nice, ...bad].every((el) => el.dataset.md === 'html'), { timeout: 20_000 }).toBe(true);
    // One call for everything that was waiting.
    expect(calls).toBe(1);
    expect(nice.querySelector('strong')?.textContent).toBe('bold');
    expect(nice.querySelector('a')?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(nice.querySelector('pre')?.tabIndex).toBe(0);
    expect(nice.querySelector('.hljs-keyword')?.textContent).toBe('const');
    for (const el of bad) expectInert(el);
    expect(bad[0].textContent).toContain('<script>window.__pwned=1</script>');
    // The same text again (scrolling back): inserted at once from the page's cache.
    const again = host();
    showMarkdown(again, text);
    expect(again.dataset.md).toBe('html');
    expect(calls).toBe(1);
    expect((window as unknown as { __pwned?: unknown }).__pwned).toBeUndefined();
  });

  test('ranking what waits reads no layout (an IntersectionObserver reports where each one is)', async () => {
    // Ranking by getBoundingClientRect laid the page out in the task that ranked (the worker's
    // reply, a slice): at 4× CPU while the reader scrolled, long tasks of forced layout.
    const asked: string[][] = [];
    cleanups.push(
      setMarkdownSource(async (texts) => {
        asked.push(texts);
        return texts.map((t) => `<p>${t}</p>`);
      }),
    );
    let reads = 0;
    const read = Element.prototype.getBoundingClientRect;
    Element.prototype.getBoundingClientRect = function (this: Element) {
      reads++;
      return read.call(this);
    };
    cleanups.push(() => {
      Element.prototype.getBoundingClientRect = read;
    });
    const far = Array.from({ length: 30 }, () => {
      const el = host();
      el.style.cssText = 'position: absolute; top: 20000px';
      return el;
    });
    const near = host();
    const tag = Math.random();
    const texts = far.map((_, i) => `far ${i} ${tag}`);
    far.forEach((el, i) => showMarkdown(el, texts[i]));
    showMarkdown(near, `near ${tag}`);
    await expect.poll(() => [near, ...far].every((el) => el.dataset.md === 'html'), { timeout: 20_000 }).toBe(true);
    expect(reads).toBe(0);
    // Asked for in batches of 24, in the order they came (none was laid out yet when the first batch went).
    expect(asked[0]).toEqual(texts.slice(0, 24));
  });

  test('a slice lays out the markdown it swapped in, in its own task (not in the next frame, with its paint)', async () => {
    cleanups.push(setMarkdownSource(async (texts) => texts.map((t) => `<p>${t}</p><ul><li>one</li><li>two</li></ul>`)));
    expect(await laidOutInSlice(host(), `laid out ${Math.random()}`)).toBe(true);
  });

  test('a slice that swapped in the HTML of a long reply leaves its layout to the next frame (not in the task that sanitized it)', async () => {
    // 25,000 characters of HTML: past what a slice lays out itself.
    const item = '<li>a step of the reply, in words</li>';
    cleanups.push(setMarkdownSource(async (texts) => texts.map((t) => `<p>${t}</p><ul>${item.repeat(Math.ceil(25_000 / item.length))}</ul>`)));
    const el = host();
    expect(await laidOutInSlice(el, `long ${Math.random()}`)).toBe(false);
    expect(el.querySelectorAll('li').length).toBe(Math.ceil(25_000 / item.length));
  });

  test('a cancelled upgrade leaves the plain text; a failing source leaves it plain for good', async () => {
    let release: (() => void) | null = null;
    cleanups.push(
      setMarkdownSource(
        (texts) =>
          new Promise((resolve) => {
            release = () => resolve(texts.map(() => '<p><strong>late</strong></p>'));
          }),
      ),
    );
    const gone = host();
    const cancel = showMarkdown(gone, `cancelled ${Math.random()}`);
    await expect.poll(() => release !== null, { timeout: 20_000 }).toBe(true);
    cancel();
    const first = release!;
    release = null;
    first();
    // A later text is asked for only after the first answer was handled: once it is on screen, the
    // cancelled one had every chance to be swapped in (an event to wait for, not a time).
    const probe = host();
    showMarkdown(probe, `probe ${Math.random()}`);
    await expect.poll(() => release !== null, { timeout: 20_000 }).toBe(true);
    release!();
    await expect.poll(() => probe.dataset.md, { timeout: 20_000 }).toBe('html');
    expect(gone.dataset.md).toBe('pending');
    expect(gone.querySelector('strong')).toBeNull();

    cleanups.push(setMarkdownSource(() => Promise.reject(new Error('no worker'))));
    const plain = host();
    const text = `**failing** ${Math.random()}`;
    showMarkdown(plain, text);
    await expect.poll(() => plain.dataset.md, { timeout: 20_000 }).toBe('plain');
    expect(plain.textContent).toBe(text);
  });
});

describe('the slice scheduler', () => {
  function fakeScheduler(budgetMs = 8, inlineBudgetMs = 0, afterPassMs = 0) {
    let clock = 0;
    const tasks: Array<() => void> = [];
    const sync: Array<() => void> = [];
    const afterPass = afterPassMs > 0 ? () => void (clock += afterPassMs) : undefined;
    const scheduler = createSliceScheduler({
      budgetMs,
      inlineBudgetMs,
      now: () => clock,
      post: (fn) => tasks.push(fn),
      afterSync: (fn) => sync.push(fn),
      afterPass,
    });
    const ran: string[] = [];
    const job = (name: string, rank: number | null, cost: number): SliceJob & { rankValue: number | null } => {
      const j = {
        rankValue: rank,
        rank: () => j.rankValue,
        run: () => {
          clock += cost;
          ran.push(name);
        },
      };
      return j;
    };
    const runTask = () => tasks.shift()?.();
    return {
      scheduler,
      job,
      ran,
      tasks,
      sync,
      runTask,
      advance: (ms: number) => {
        clock += ms;
      },
    };
  }

  test('each task stops once the budget is spent, most urgent first; the rest goes to later tasks', () => {
    const { scheduler, job, ran, tasks, runTask } = fakeScheduler(8);
    for (const [name, rank] of [
      ['far', 900],
      ['near', 0],
      ['mid', 300],
      ['farther', 2000],
      ['close', 10],
    ] as const)
      scheduler.add(job(name, rank, 3));
    expect(tasks).toHaveLength(1);
    expect(ran).toEqual([]);
    runTask();
    // 3 + 3 + 3 ms: the third job crosses 8 ms, then the task yields.
    expect(ran).toEqual(['near', 'close', 'mid']);
    expect(tasks).toHaveLength(1);
    runTask();
    expect(ran).toEqual(['near', 'close', 'mid', 'far', 'farther']);
    expect(tasks).toHaveLength(0);
    expect(scheduler.size).toBe(0);
  });

  test("the time a pass's afterPass takes counts against the budget: the next passes run fewer jobs", () => {
    // Every pass's afterPass (its layout) takes 9 ms, three times what three 1 ms jobs ran for.
    const { scheduler, job, ran, runTask } = fakeScheduler(4, 0, 9);
    for (let i = 0; i < 20; i++) scheduler.add(job(`j${i}`, i, 1));
    const perPass: number[] = [];
    for (let pass = 0; pass < 4; pass++) {
      const before = ran.length;
      runTask();
      perPass.push(ran.length - before);
    }
    // First pass: the whole 4 ms on jobs; then a budget cut to the jobs' share of the pass.
    expect(perPass[0]).toBe(4);
    expect(perPass[1]).toBeLessThan(4);
    expect(perPass[3]).toBeLessThanOrEqual(perPass[1]);
    expect(perPass[3]).toBeGreaterThanOrEqual(1);
    expect(ran.slice(0, 4)).toEqual(['j0', 'j1', 'j2', 'j3']);
  });

  test('a job over the budget still runs (alone); ranks are read again in every task', () => {
    const { scheduler, job, ran, runTask } = fakeScheduler(8);
    const big = job('big', 5, 50);
    const small = job('small', 1, 1);
    scheduler.add(big);
    scheduler.add(small);
    small.rankValue = 10;
    runTask();
    expect(ran).toEqual(['big']);
    runTask();
    expect(ran).toEqual(['big', 'small']);
  });

  test('a job not ready waits without spinning until woken; a cancelled job never runs', () => {
    const { scheduler, job, ran, tasks, runTask } = fakeScheduler(8);
    const waiting = job('waiting', null, 1);
    const cancelled = job('cancelled', 0, 1);
    scheduler.add(waiting);
    scheduler.add(cancelled);
    scheduler.cancel(cancelled);
    runTask();
    expect(ran).toEqual([]);
    expect(tasks).toHaveLength(0);
    waiting.rankValue = 3;
    scheduler.wake();
    runTask();
    expect(ran).toEqual(['waiting']);
  });

  test('runNow runs at once within the inline budget of one stretch of synchronous work, then queues', () => {
    const { scheduler, job, ran, tasks, sync, runTask } = fakeScheduler(8, 4);
    expect(scheduler.runNow(job('a', 0, 3))).toBe(true);
    expect(scheduler.runNow(job('b', 0, 3))).toBe(true);
    // 6 ms spent inline: the next one waits for a task.
    expect(scheduler.runNow(job('c', 0, 3))).toBe(false);
    expect(ran).toEqual(['a', 'b']);
    expect(tasks).toHaveLength(1);
    // The synchronous stretch ends: the inline budget is back.
    sync.shift()!();
    expect(scheduler.runNow(job('d', 0, 1))).toBe(true);
    runTask();
    expect(ran).toEqual(['a', 'b', 'd', 'c']);
  });
});

/** Shows `text` as markdown in `el`; whether the slice that swapped it in read its layout before its task ended. */
async function laidOutInSlice(el: HTMLElement, text: string): Promise<boolean> {
  let laidOutInTask: boolean | null = null;
  let reads = 0;
  const d = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!;
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      if (this === el) reads++;
      return d.get!.call(this);
    },
  });
  cleanups.push(() => Object.defineProperty(HTMLElement.prototype, 'offsetHeight', d));
  // The swap's event comes inside the slice; a microtask queued there runs once the slice's own work is done.
  el.addEventListener('rd-markdown', () => queueMicrotask(() => (laidOutInTask = reads > 0)));
  showMarkdown(el, text);
  await expect.poll(() => laidOutInTask).not.toBeNull();
  return laidOutInTask === true;
}
