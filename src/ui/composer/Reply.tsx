import { useLayoutEffect, useRef } from 'preact/hooks';
import { StreamingMarkdown } from '../markdown/StreamingMarkdown.tsx';
import type { Composer as ComposerState } from './composer-state.ts';

/**
 * The reply as it streams in. A component of its own: the reply changes every frame while it
 * streams, and only what shows it renders again (not the form, its model list and buttons). Its
 * box has one height from the first token to the last (composer.css): the page around it is not
 * laid out again as the reply grows.
 */
export function Reply({ c }: { c: ComposerState }) {
  const reply = c.reply.value;
  const box = useRef<HTMLDivElement>(null);
  useFollowEnd(box, reply !== null);
  if (!reply) return null;
  return (
    <div class="composer-reply" ref={box}>
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
