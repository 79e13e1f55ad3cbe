// The streaming reply's box (src/ui/composer/Reply.tsx) in Chromium: it shows the reply's end as
// the reply grows past its height, stays where the reader scrolled up to, and follows the end again
// once the reader is back there.
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

function mount() {
  // A markdown source that never answers: finished blocks stay plain text, their height known.
  cleanups.push(setMarkdownSource(() => new Promise(() => undefined)));
  const root = document.createElement('div');
  root.style.width = '360px';
  document.body.append(root);
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
  expect(box().classList.contains('composer-reply-full')).toBe(true);

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
