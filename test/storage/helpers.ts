// Small builders of session files for storage and worker tests.
import { concatBytes } from '../../src/storage/chunks.ts';
import { createStore } from '../../src/storage/store.ts';
import { readAnyFormat } from '../../src/worker/import/reading.ts';
import { createMemoryDisk, type MemoryDiskOptions } from '../../src/storage/memory-disk.ts';
import type { Disk } from '../../src/storage/types.ts';

const encoder = new TextEncoder();

/** Bytes of a string. */
export const bytes = (s: string) => encoder.encode(s);

/** A header line. */
export function headerLine(id: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-01-02T03:04:05.678Z', cwd: '/home/u/proj', ...extra });
}

/** A user or assistant message entry line. */
export function messageLine(id: string, parentId: string | null, role: 'user' | 'assistant', text: string, extra: Record<string, unknown> = {}): string {
  const message: Record<string, unknown> =
    role === 'user'
      ? { role, content: text, timestamp: 1 }
      : {
          role,
          content: [{ type: 'text', text }],
          api: 'anthropic-messages',
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          usage: {
            input: 10,
            output: 5,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 15,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.01 },
          },
          stopReason: 'stop',
          timestamp: 2,
        };
  return JSON.stringify({ type: 'message', id, parentId, timestamp: '2026-01-02T03:04:06.000Z', message, ...extra });
}

/** A linear session of `turns` user/assistant pairs, as JSONL text ending in "\n". */
export function sessionText(id: string, turns = 2, opts: { prefix?: string; header?: Record<string, unknown> } = {}): string {
  const lines = [headerLine(id, opts.header)];
  let parent: string | null = null;
  for (let i = 0; i < turns; i++) {
    const u = `${opts.prefix ?? 'e'}${(2 * i).toString(16).padStart(7, '0')}`;
    const a = `${opts.prefix ?? 'e'}${(2 * i + 1).toString(16).padStart(7, '0')}`;
    lines.push(messageLine(u, parent, 'user', `question ${i} for ${id}`));
    lines.push(messageLine(a, u, 'assistant', `answer ${i}`));
    parent = a;
  }
  return lines.join('\n') + '\n';
}

/** A store over a fresh memory disk, writing its index at once. */
export function memoryStore(opts: MemoryDiskOptions & { now?: () => number } = {}) {
  const disk = createMemoryDisk(opts);
  const store = createStore(disk, { flushDelay: 0, now: opts.now, reader: readAnyFormat });
  return { disk, store };
}

/** Collects an async iterable of chunks into one array. */
export async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  // Copied as they come: a producer may reuse its buffer for the next chunk.
  for await (const c of chunks) parts.push(c.slice());
  return concatBytes(parts);
}

/** A memory disk that counts the bytes written to each path, and the reads of each. */
export function countingDisk() {
  const inner = createMemoryDisk();
  const written = new Map<string, number>();
  const reads = new Map<string, number>();
  const add = (path: string, n: number) => written.set(path, (written.get(path) ?? 0) + n);
  const disk: Disk = {
    ...inner,
    read(path, start, end) {
      reads.set(path, (reads.get(path) ?? 0) + 1);
      return inner.read(path, start, end);
    },
    async writeNew(path, chunks, signal) {
      const n = await inner.writeNew(path, chunks, signal);
      add(path, n);
      return n;
    },
    async append(path, input, signal) {
      const before = (await inner.size(path)) ?? 0;
      await inner.append(path, input, signal);
      add(path, ((await inner.size(path)) ?? 0) - before);
    },
  };
  return { disk, inner, written, reads };
}
