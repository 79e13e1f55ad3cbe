import { useRef } from 'preact/hooks';
import { type Blocks, cutBlocks, EMPTY_CUT } from './blocks.ts';
import { Markdown } from './Markdown.tsx';

/**
 * Markdown that streams in: each finished block rendered once as markdown (the same string every
 * frame after, so it is neither made nor laid out again), the block still growing as plain text.
 * Rendering the whole reply again as it grows would cost a worker round trip, a sanitization and a layout of
 * all of it every frame, and show it plain between the two.
 */
export function StreamingMarkdown({ text }: { text: string }) {
  const cut = useRef<Blocks>(EMPTY_CUT);
  cut.current = cutBlocks(text, cut.current);
  const { done, at } = cut.current;
  const tail = text.slice(at);
  return (
    <div class="md-stream">
      {done.map((block, i) => (
        <Markdown key={i} text={block} />
      ))}
      {tail.trim() && <div class="md md-tail">{tail}</div>}
    </div>
  );
}
