// The creation log's records (src/storage/creations.ts) over a memory disk that offers in-place
// writes and a log file, as the OPFS disk does (each LogFile.write counted, as each is a call to the
// browser there): an end record shares the next write, and is on disk before its session's write
// lock is let go; a file opened ahead has its begin record written with the next record, or once
// its session is wanted; a new session in a run of locks taken ahead costs one write.
import { describe, expect, test } from 'vitest';
import { createCreationLog } from '../../src/storage/creations.ts';
import { once } from '../../src/storage/chunks.ts';
import { createMemoryDisk } from '../../src/storage/memory-disk.ts';
import { createStore } from '../../src/storage/store.ts';
import type { ByteChunks, Disk } from '../../src/storage/types.ts';
import { bytes, sessionText } from './helpers.ts';

const decoder = new TextDecoder();

/** A memory disk with `openLog` and in-place writes; `writes` lists each log write's text. */
function logDisk() {
  const disk = createMemoryDisk();
  const writes: string[] = [];
  const place = async (path: string, chunks: ByteChunks) => disk.writeNew(path, chunks);
  const extra: Pick<Disk, 'openLog' | 'writeInPlace' | 'openInPlace'> = {
    async openLog(path) {
      await disk.writeNew(path, once(new Uint8Array(0)));
      let text = '';
      return {
        write(line) {
          writes.push(line);
          text += `${line}\n`;
          disk.files.set(path, { bytes: bytes(text), modified: 1 });
          return bytes(`${line}\n`).length;
        },
        reserve: () => undefined,
        close: () => undefined,
      };
    },
    writeInPlace: (path, chunks) => place(path, chunks),
    async openInPlace(path) {
      await disk.writeNew(path, once(new Uint8Array(0)));
      return { write: (chunks) => place(path, chunks), discard: () => disk.remove(path) };
    },
  };
  Object.assign(disk, extra);
  /** The log's text as on disk now (one log in journal/). */
  const logText = () => {
    const name = [...disk.files.keys()].find((p) => p.startsWith('journal/+create-'));
    return name ? decoder.decode(disk.files.get(name)?.bytes) : '';
  };
  return { disk, writes, logText };
}

describe('creation log records', () => {
  test('an end record waits for the next write: the next begin carries it, or settle() writes it alone', async () => {
    const { disk, writes } = logDisk();
    const log = createCreationLog(disk, 'journal', () => 1);
    const a = await log.begin('sessions/a.jsonl');
    a.end();
    expect(writes).toEqual(['+sessions/a.jsonl']);
    const b = await log.begin('sessions/b.jsonl');
    expect(writes).toEqual(['+sessions/a.jsonl', '-sessions/a.jsonl\n+sessions/b.jsonl']);
    b.end();
    log.settle();
    log.settle();
    expect(writes).toEqual(['+sessions/a.jsonl', '-sessions/a.jsonl\n+sessions/b.jsonl', '-sessions/b.jsonl']);
  });

  test('a file opened ahead has its begin record written with the next record, or once it is wanted; not before', async () => {
    const { disk, writes } = logDisk();
    const log = createCreationLog(disk, 'journal', () => 1);
    const a = await log.begin('sessions/a.jsonl');
    let written = false;
    const ahead = log.begin('sessions/c.jsonl', new Promise(() => undefined)).then((c) => {
      written = true;
      return c;
    });
    a.end();
    await Promise.resolve();
    expect(written).toBe(false);
    log.settle();
    const c = await ahead;
    expect(writes).toEqual(['+sessions/a.jsonl', '-sessions/a.jsonl\n+sessions/c.jsonl']);
    c.end();
    let want = () => {};
    const d = log.begin('sessions/d.jsonl', new Promise<void>((w) => (want = w)));
    await Promise.resolve();
    expect(writes).toHaveLength(2);
    want();
    await d;
    expect(writes[2]).toBe('-sessions/c.jsonl\n+sessions/d.jsonl');
  });
});

describe('creation log under the store', () => {
  test("a session's write lock is let go only once its end record is in the log", async () => {
    const { disk, logText } = logDisk();
    const [writer, other] = [createStore(disk, { flushDelay: 0 }), createStore(disk, { flushDelay: 0 })];
    let seen = '';
    const waiting = writer.withWriteLock('s1', () => writer.create('s1', once(bytes(sessionText('s1'))), { checked: true }), undefined, true);
    await other.withWriteLock('s1', async () => {
      seen = logText();
    });
    await waiting;
    expect(seen.split('\n').filter(Boolean)).toEqual(['+sessions/s1.jsonl', '-sessions/s1.jsonl']);
  });

  test('a lock taken ahead and kept after its session is written is let go once its end record is in the log', async () => {
    const { disk, logText } = logDisk();
    const [writer, other] = [createStore(disk, { flushDelay: 0 }), createStore(disk, { flushDelay: 0 })];
    writer.reserve?.('s1');
    writer.reserve?.('s2');
    await writer.withWriteLock('s1', () => writer.create('s1', once(bytes(sessionText('s1'))), { checked: true }), undefined, true);
    let seen = '';
    const theirs = other.withWriteLock('s1', async () => {
      seen = logText();
    });
    await writer.withWriteLock('s2', () => writer.create('s2', once(bytes(sessionText('s2'))), { checked: true }), undefined, true);
    await writer.releaseReserved?.();
    await theirs;
    expect(seen.split('\n').filter(Boolean)).toContain('-sessions/s1.jsonl');
    expect((await other.family('s1')).map((s) => s.id)).toEqual(['s1']);
  });

  test('sessions written in turn with the next four taken ahead (a folder import) cost one log write for each four, every file begun and ended', async () => {
    const { disk, writes, logText } = logDisk();
    const store = createStore(disk, { flushDelay: 0 });
    const ids = Array.from({ length: 12 }, (_, i) => `f${i}`);
    for (const [i, id] of ids.entries()) {
      for (let k = 1; k <= 4 && i + k < ids.length; k++) store.reserve?.(ids[i + k]);
      await store.withWriteLock(id, () => store.create(id, once(bytes(sessionText(id))), { checked: true }), undefined, true);
    }
    await store.releaseReserved?.();
    const lines = logText().split('\n').filter(Boolean);
    for (const id of ids)
      expect(
        lines.filter((l) => l.slice(1) === `sessions/${id}.jsonl`),
        id,
      ).toEqual([`+sessions/${id}.jsonl`, `-sessions/${id}.jsonl`]);
    // The locks of written sessions are kept until the next run's begin records are written, and let go with their end records in that write.
    expect(writes.length).toBeLessThanOrEqual(Math.ceil(ids.length / 4) + 2);
    await store.flush();
    expect([...disk.files.keys()].filter((p) => p.startsWith('journal/'))).toEqual([]);
  });
});
