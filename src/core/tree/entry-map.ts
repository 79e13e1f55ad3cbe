// `byId` as a read-only view over the one real index (id → position in `entries`), so a session with
// 200,000 entries builds one Map, not two.
import type { Entry } from '../schema/types.ts';

/** A ReadonlyMap from id to entry, backed by `indexById` and the entry list (a later duplicate wins). */
export class EntryMap implements ReadonlyMap<string, Entry> {
  readonly #index: ReadonlyMap<string, number>;
  readonly #list: readonly Entry[];
  constructor(indexById: ReadonlyMap<string, number>, entries: readonly Entry[]) {
    this.#index = indexById;
    this.#list = entries;
  }
  get size(): number {
    return this.#index.size;
  }
  get(id: string): Entry | undefined {
    const i = this.#index.get(id);
    return i === undefined ? undefined : this.#list[i];
  }
  has(id: string): boolean {
    return this.#index.has(id);
  }
  forEach(fn: (value: Entry, key: string, map: ReadonlyMap<string, Entry>) => void, thisArg?: unknown): void {
    for (const [id, i] of this.#index) fn.call(thisArg, this.#list[i], id, this);
  }
  *entries(): MapIterator<[string, Entry]> {
    for (const [id, i] of this.#index) yield [id, this.#list[i]];
  }
  [Symbol.iterator](): MapIterator<[string, Entry]> {
    return this.entries();
  }
  keys(): MapIterator<string> {
    return this.#index.keys();
  }
  *values(): MapIterator<Entry> {
    for (const i of this.#index.values()) yield this.#list[i];
  }
}
