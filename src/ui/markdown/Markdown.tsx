import { useLayoutEffect, useRef } from 'preact/hooks';
import { highlightWithin } from './highlight.ts';
import { renderMarkdown } from './render.ts';

/** Past this size text is shown plain: markdown of huge pastes would stall scrolling. */
export const MARKDOWN_LIMIT = 40_000;

/** Renders markdown text (sanitized) into a div; code blocks get highlighted lazily. */
export function Markdown({ text, class: className = '' }: { text: string; class?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const large = text.length > MARKDOWN_LIMIT;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (large) {
      el.textContent = text;
      return;
    }
    // renderMarkdown's output comes from markdown-it with html:false, then DOMPurify: safe to insert.
    el.innerHTML = renderMarkdown(text);
    // Code blocks scroll sideways: keyboard users must be able to reach them.
    for (const pre of el.querySelectorAll('pre')) pre.tabIndex = 0;
    void highlightWithin(el);
  }, [text, large]);
  return <div ref={ref} class={`md ${large ? 'md-plain' : ''} ${className}`} />;
}
