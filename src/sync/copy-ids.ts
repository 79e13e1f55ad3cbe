// Prefix ids of one local copy, computed on demand and cached (block hashes in the state).
import { prefixIds } from './prefix.ts';
import type { Round } from './round.ts';
import type { LocalCopy } from './types.ts';

export class CopyIds {
  private readonly memo = new Map<number, string>();
  constructor(
    private readonly r: Round,
    readonly copy: LocalCopy,
  ) {
    const cache = r.state.blocks[copy.copy];
    if (cache && cache.size > copy.size) delete r.state.blocks[copy.copy]; // shrank: not the bytes we hashed
  }

  /** The id of the copy's first `size` bytes (size ≤ the copy's size). */
  async at(size: number): Promise<string> {
    const hit = this.memo.get(size);
    if (hit) return hit;
    const { local } = this.r.deps;
    const { ids, cache } = await prefixIds((s, e) => local.read(this.copy.copy, s, e), [size], this.r.state.blocks[this.copy.copy]);
    this.r.state.blocks[this.copy.copy] = cache;
    const id = ids.get(size)!;
    this.memo.set(size, id);
    return id;
  }

  /** The copy grew by an append made here: its earlier ids stay valid. */
  grew(size: number): void {
    this.copy.size = size;
  }
}
