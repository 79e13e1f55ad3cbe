// An in-memory local side for engine tests: copies with bytes, append only at the expected size,
// variants named `<key>~n` (as the app's store names them), a trash that keeps what it took.
import type { LocalCopy, LocalSide, StateStore, SyncState } from '../../src/sync/index.ts';

export interface MemoryLocal extends LocalSide {
  copies: Map<string, { key: string; bytes: Uint8Array; path?: string }>;
  trashed: Map<string, Uint8Array>;
  /** The user deletes a copy here (to the trash). */
  remove(copy: string): void;
  /** Appends bytes as an agent would (outside the engine). */
  write(copy: string, key: string, bytes: Uint8Array | string): void;
}

const enc = new TextEncoder();

export function memoryLocal(): MemoryLocal {
  const copies = new Map<string, { key: string; bytes: Uint8Array; path?: string }>();
  const trashed = new Map<string, Uint8Array>();
  const pending = new Map<string, LocalCopy>();
  const join = (a: Uint8Array, b: Uint8Array) => {
    const out = new Uint8Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  };
  return {
    copies,
    trashed,
    write(copy, key, bytes) {
      const add = typeof bytes === 'string' ? enc.encode(bytes) : bytes;
      const c = copies.get(copy);
      copies.set(copy, { key, bytes: c ? join(c.bytes, add) : add, path: c?.path ?? `${copy}.jsonl` });
    },
    remove(copy) {
      const c = copies.get(copy)!;
      pending.set(copy, { key: c.key, copy, size: c.bytes.length });
      trashed.set(copy, c.bytes);
      copies.delete(copy);
    },
    async trashedHere() {
      return [...pending.values()];
    },
    async trashSent(done) {
      for (const c of done) pending.delete(c);
    },
    async list() {
      return [...copies].map(([copy, c]): LocalCopy => ({ key: c.key, copy, size: c.bytes.length, path: c.path }));
    },
    async read(copy, start, end) {
      return copies.get(copy)!.bytes.slice(start, end);
    },
    async append(copy, expectedSize, bytes) {
      const c = copies.get(copy)!;
      if (c.bytes.length !== expectedSize) throw new Error(`${copy} changed`);
      c.bytes = join(c.bytes, bytes);
    },
    async create(key, bytes, opts) {
      let copy = key;
      for (let n = 2; copies.has(copy); n++) copy = `${key}~${n}`;
      copies.set(copy, { key, bytes: bytes.slice(), path: opts.path });
      return copy;
    },
    async trash(copy) {
      trashed.set(copy, copies.get(copy)!.bytes);
      copies.delete(copy);
      return true;
    },
  };
}

/** Engine state kept in memory (a JSON copy, as a file or IndexedDB would keep it). */
export function memoryState(): StateStore & { value: SyncState | null } {
  const box = {
    value: null as SyncState | null,
    async load() {
      return box.value ? (JSON.parse(JSON.stringify(box.value)) as SyncState) : null;
    },
    async save(state: SyncState) {
      box.value = JSON.parse(JSON.stringify(state)) as SyncState;
    },
  };
  return box;
}
