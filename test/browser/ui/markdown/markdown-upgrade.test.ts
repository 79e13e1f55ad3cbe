// The time-sliced upgrade of the reader's markdown (upgrade.ts) in Chromium: the worker's HTML,
// sanitized, swapped in slice by slice.
import { afterEach, describe, expect, test } from 'vitest';
import { setMarkdownSource, showMarkdown } from '../../../../src/ui/markdown/upgrade.ts';
import { cleanups, worker, expectInert, HOSTILE } from './markdown-helpers.ts';

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
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
