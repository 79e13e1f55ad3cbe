import { Component, type VNode } from 'preact';
import { useRef } from 'preact/hooks';
import { type Blocks, cutBlocks, EMPTY_CUT } from './blocks.ts';
import { Markdown } from './Markdown.tsx';

/** Finished blocks kept together in one element: a frame lays out and paints the group, not each block. */
export const BLOCKS_PER_GROUP = 16;

/**
 * Elements made once and given again while what they show is the same: preact skips an element
 * it rendered before, so a list that grows at its end renders its new element alone.
 */
class Made<K> {
  private made: Array<{ key: K; node: VNode }> = [];
  list(keys: readonly K[], make: (key: K, i: number) => VNode, same: (a: K, b: K) => boolean = Object.is): VNode[] {
    const made = this.made;
    this.made = keys.map((key, i) => (made[i] && same(made[i].key, key) ? made[i] : { key, node: make(key, i) }));
    return this.made.map((m) => m.node);
  }
}

/**
 * The finished blocks of a streaming reply, BLOCKS_PER_GROUP to a group. Rendered again only when
 * their list changes (a block finished, or the reply started over), not at every frame of tokens
 * in the growing block. Grouped so that the frame's layout walks a group's worth of elements and
 * the groups, not every block of a long reply: a group whose blocks are the same is not laid out
 * or painted again (`contain: content`, composer.css).
 */
export class FinishedBlocks extends Component<{ blocks: readonly string[] }> {
  private blocks = new Made<string>();
  private groups = new Made<VNode[]>();

  shouldComponentUpdate(next: { blocks: readonly string[] }): boolean {
    const now = this.props.blocks;
    return now !== next.blocks && (now.length !== next.blocks.length || next.blocks.some((block, i) => block !== now[i]));
  }

  render({ blocks }: { blocks: readonly string[] }) {
    const nodes = this.blocks.list(blocks, (text, i) => <Markdown key={i} text={text} />);
    const grouped: VNode[][] = [];
    for (let i = 0; i < nodes.length; i += BLOCKS_PER_GROUP) grouped.push(nodes.slice(i, i + BLOCKS_PER_GROUP));
    const sameNodes = (a: VNode[], b: VNode[]) => a.length === b.length && a.every((node, i) => node === b[i]);
    return this.groups.list(
      grouped,
      (group, i) => (
        <div key={i} class="md-group">
          {group}
        </div>
      ),
      sameNodes,
    );
  }
}

/**
 * The growing block as plain text: its pieces of whole lines (each the same string, so the same
 * element, once complete) and its last lines. A token changes the last lines alone: a long code
 * block or list streaming in is not laid out again from its start at every frame.
 */
function GrowingBlock({ pieces, last }: { pieces: readonly string[]; last: string }) {
  const made = useRef(new Made<string>());
  const nodes = made.current.list(pieces, (piece, i) => (
    <div key={i} class="md-lines">
      {piece}
    </div>
  ));
  return (
    <div class="md md-tail">
      {nodes}
      {last}
    </div>
  );
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
  const { done, pieces, rest } = cut.current;
  // Before the first piece, the whole growing block (a blank one is not shown).
  const last = text.slice(rest);
  return (
    <div class="md-stream">
      <FinishedBlocks blocks={done} />
      {(pieces.length > 0 || last.trim()) && <GrowingBlock pieces={pieces} last={last} />}
    </div>
  );
}
