import { useLayoutEffect, useRef } from 'preact/hooks';
import { showMarkdown } from './upgrade.ts';
import './markdown.css';

/** Past this size text is shown plain: markdown of huge pastes would stall scrolling. */
export const MARKDOWN_LIMIT = 40_000;

/**
 * Renders markdown text into a div: plain text at once, then the worker-made, page-sanitized HTML
 * when the time-sliced upgrade reaches it (upgrade.ts).
 */
export function Markdown({ text, class: className = '' }: { text: string; class?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const large = text.length > MARKDOWN_LIMIT;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (large) {
      el.textContent = text;
      el.dataset.md = 'plain';
      return;
    }
    return showMarkdown(el, text);
  }, [text, large]);
  return <div ref={ref} class={`md ${large ? 'md-plain' : ''} ${className}`} />;
}
