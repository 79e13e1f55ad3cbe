// The streaming reply's box (src/ui/composer/Reply.tsx) in Chromium: it stands at one height from
// the first token on, shows the reply's end as the reply grows past that height, stays where the
// reader scrolled up to, and follows the end again once the reader is back there.
import { signal } from '@preact/signals';
import { h, render } from 'preact';
import { afterEach, expect, test } from 'vitest';
import '../../../../src/ui/composer/composer.css';
import type { Composer } from '../../../../src/ui/composer/composer-state.ts';
import { Reply } from '../../../../src/ui/composer/Reply.tsx';
import { setMarkdownSource } from '../../../../src/ui/markdown/upgrade.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

/** After the next frame's rendering (its layout, resize observations and paint) is done. */
const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
/** After the box's next scroll event. */
const scrolled = (el: Element) => new Promise<void>((resolve) => el.addEventListener('scroll', () => resolve(), { once: true }));

function mount(host: HTMLElement = document.body) {
  // A markdown source that never answers: finished blocks stay plain text, their height known.
  cleanups.push(setMarkdownSource(() => new Promise(() => undefined)));
  const root = document.createElement('div');
  root.style.width = '360px';
  host.append(root);
  const reply = signal<{ text: string; thinking: string; cost: number; sent: string } | null>({ text: '', thinking: '', cost: 0, sent: 'Go on' });
  render(h(Reply, { c: { reply } as unknown as Composer }), root);
  cleanups.push(() => {
    render(null, root);
    root.remove();
  });
  let text = '';
  let next = 0;
  return {
    box: () => root.querySelector<HTMLElement>('.composer-reply')!,
    /** Adds `count` paragraphs to the reply, shown in the next frame; resolves with the last one's number. */
    grow: async (count: number) => {
      for (const end = next + count; next < end; next++) text += `${next ? '\n\n' : ''}Paragraph ${next} of the reply.`;
      reply.value = { ...reply.value!, text };
      await frame();
      return next - 1;
    },
  };
}

/** The paragraphs whose text shows in the box (laid out inside its visible part). */
function visible(box: HTMLElement): number[] {
  const view = box.getBoundingClientRect();
  return [...box.querySelectorAll('.md-stream .md')]
    .filter((el) => {
      const r = el.getBoundingClientRect();
      return r.bottom > view.top + 1 && r.top < view.bottom - 1;
    })
    .flatMap((el) => [...(el.textContent ?? '').matchAll(/Paragraph (\d+)/g)].map((m) => Number(m[1])));
}

test('the box shows the end of a reply longer than itself, stays where the reader scrolled up to, and follows again from the end', async () => {
  const { box, grow } = mount();
  await grow(3);
  expect(box().scrollHeight).toBeLessThanOrEqual(box().clientHeight);
  expect(visible(box())).toEqual([0, 1, 2]);

  // Longer than the box (45% of the window's height): its end in view, its start scrolled out.
  let last = 2;
  for (let i = 0; i < 17; i++) last = await grow(7);
  expect(box().scrollHeight).toBeGreaterThan(box().clientHeight * 2);
  expect(visible(box())).toContain(last);
  expect(visible(box())).not.toContain(0);

  // The reader scrolls up to the start: the reply grows, the start stays in view.
  const up = scrolled(box());
  box().scrollTop = 0;
  await up;
  last = await grow(14);
  expect(visible(box())).toContain(0);
  expect(visible(box())).not.toContain(last);

  // Back at the end: the box follows the reply again.
  const down = scrolled(box());
  box().scrollTop = box().scrollHeight;
  await down;
  last = await grow(10);
  expect(visible(box())).toContain(last);
  expect(visible(box())).not.toContain(0);
});

test('the box stands at 45% of the window from the first token: the reply grows inside it, the page around it keeps its size', async () => {
  // What stands above the composer in the reader (the transcript), sized by the page's flex column.
  const page = document.createElement('div');
  page.style.cssText = 'display: flex; flex-direction: column; height: 100vh';
  const above = document.createElement('div');
  above.style.cssText = 'flex: 1; min-height: 0';
  page.append(above);
  document.body.append(page);
  cleanups.push(() => page.remove());
  const { box, grow } = mount(page);
  await grow(1);
  const largest = window.innerHeight * 0.45;
  expect(Math.abs(box().getBoundingClientRect().height - largest)).toBeLessThan(1);
  const aboveHeight = above.getBoundingClientRect().height;

  // Every size the box and the element above it take while the reply grows past the box's height.
  const sizes: number[] = [];
  const observer = new ResizeObserver((entries) => {
    for (const e of entries) sizes.push(e.borderBoxSize[0].blockSize);
  });
  observer.observe(box());
  observer.observe(above);
  cleanups.push(() => observer.disconnect());
  await frame();
  sizes.length = 0;
  for (let i = 0; i < 12; i++) await grow(3);
  expect(box().scrollHeight).toBeGreaterThan(box().clientHeight);
  expect(sizes).toEqual([]);
  expect(above.getBoundingClientRect().height).toBe(aboveHeight);
  expect(Math.abs(box().getBoundingClientRect().height - largest)).toBeLessThan(1);
});
