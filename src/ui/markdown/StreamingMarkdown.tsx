import { Component, type VNode } from 'preact';
import { useRef } from 'preact/hooks';
import { type Blocks, cutBlocks, EMPTY_CUT } from './blocks.ts';
import { Markdown } from './Markdown.tsx';

/**
 * The finished blocks of a streaming reply. Rendered again only when their list changes (a block
 * finished, or the reply started over), not at every frame of tokens in the growing block: a long
 * reply has hundreds of them, each a component to render and diff again for nothing.
 */
export class FinishedBlocks extends Component<{ blocks: readonly string[] }> {
  /**
   * The element made for each block, given again while the block's text is the same: preact skips
   * an element it rendered before, so a finished block added renders that block alone, not all of them again.
   */
  private made: Array<{ text: string; node: VNode }> = [];

  shouldComponentUpdate(next: { blocks: readonly string[] }): boolean {
    const now = this.props.blocks;
    return now.length !== next.blocks.length || next.blocks.some((block, i) => block !== now[i]);
  }

  render({ blocks }: { blocks: readonly string[] }) {
    const made = this.made;
    this.made = blocks.map((text, i) => (made[i]?.text === text ? made[i] : { text, node: <Markdown key={i} text={text} /> }));
    return this.made.map((m) => m.node);
  }
}

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
      <FinishedBlocks blocks={done} />
      {tail.trim() && <div class="md md-tail">{tail}</div>}
    </div>
  );
}
