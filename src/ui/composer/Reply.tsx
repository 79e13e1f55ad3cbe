import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { StreamingMarkdown } from '../markdown/StreamingMarkdown.tsx';
import type { Composer as ComposerState } from './composer-state.ts';

/**
 * The reply as it streams in. A component of its own: the reply changes every frame while it
 * streams, and only what shows it renders again (not the form, its model list and buttons).
 */
export function Reply({ c }: { c: ComposerState }) {
  const reply = c.reply.value;
  const box = useRef<HTMLDivElement>(null);
  const full = useFull(box, reply !== null);
  useFollowEnd(box, reply !== null);
  if (!reply) return null;
  return (
    <div class={`composer-reply${full ? ' composer-reply-full' : ''}`} ref={box}>
      {/* One child: its size tells when the reply grew (useFollowEnd). */}
      <div>
        <p class="composer-sent">{reply.sent}</p>
        {reply.thinking && (
          <details class="composer-thinking">
            <summary>Thinking</summary>
            <p>{reply.thinking}</p>
          </details>
        )}
        <StreamingMarkdown text={reply.text || '…'} />
      </div>
    </div>
  );
}

/**
 * Whether the reply's box is full (its content overflows it: the box stands at its largest height).
 * From then on the box's size no longer depends on the reply (`.composer-reply-full`: a fixed
 * height and size containment), so a token laid out in it lays out the box alone, not the composer,
 * the reader around it and the page. Told by a ResizeObserver (after the frame's layout): reading
 * the sizes in a render would lay the page out there.
 */
function useFull(box: { current: HTMLDivElement | null }, shown: boolean): boolean {
  const [full, setFull] = useState(false);
  useLayoutEffect(() => {
    const el = box.current;
    const content = el?.firstElementChild;
    if (!el || !content || typeof ResizeObserver !== 'function') return;
    const sizes = new Map<Element, number>();
    const observer = new ResizeObserver((entries) => {
      for (const e of entries) sizes.set(e.target, e.contentRect.height);
      if ((sizes.get(content) ?? 0) > (sizes.get(el) ?? Infinity)) {
        observer.disconnect();
        setFull(true);
      }
    });
    observer.observe(el);
    observer.observe(content);
    return () => {
      observer.disconnect();
      setFull(false);
    };
  }, [shown]);
  return full;
}

/**
 * Keeps the reply's box scrolled to its end while the reader is there, until they scroll up (and
 * again once they scroll back down to the end). The box scrolls in normal flow, so the blocks
 * already shown keep their place in it and are neither laid out nor painted again as the reply
 * grows at its end; it is moved to its end when its content changed size, told by a ResizeObserver
 * after the frame's layout (in the same frame, with no layout forced): a token, or a finished block
 * turned into markdown.
 */
function useFollowEnd(box: { current: HTMLDivElement | null }, shown: boolean): void {
  useLayoutEffect(() => {
    const el = box.current;
    const content = el?.firstElementChild;
    if (!el || !content || typeof ResizeObserver !== 'function') return;
    let follow = true;
    /** Where the box was last moved to: its own scroll event says nothing of the reader. */
    let moved = -1;
    const observer = new ResizeObserver(() => {
      if (!follow) return;
      el.scrollTop = el.scrollHeight;
      moved = el.scrollTop;
    });
    const scrolled = () => {
      if (Math.abs(el.scrollTop - moved) < 1) return;
      follow = el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
    };
    observer.observe(content);
    el.addEventListener('scroll', scrolled, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', scrolled);
    };
  }, [shown]);
}
