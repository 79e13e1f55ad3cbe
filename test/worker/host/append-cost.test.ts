// A host append costs the entry, not the file: the bytes read from the disk while one entry is
// appended to a stored session are counted beside the store (a wrapper of its disk), and the
// library's record it leaves is checked against a new store's reading of the same file.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { branch, type Entry, user, withLeaf } from '../../../src/core/index.ts';
import { decodeEnvelopeIndex } from '../../../src/core/envelope/envelope-file.ts';
import { once } from '../../../src/storage/chunks.ts';
import { createMemoryDisk } from '../../../src/storage/memory-disk.ts';
import { createStore } from '../../../src/storage/store.ts';
import type { Disk, SessionSummary } from '../../../src/storage/types.ts';
import { indexNewSession } from '../../../src/worker/import/envelopes.ts';
import { piReading, readAnyFormat } from '../../../src/worker/import/reading.ts';
import { createSessionFiles } from '../../../src/worker/host/session-file.ts';

const FIXTURE = 'fixtures/real/VerveAILabs-openclaw-backup-image-branches.jsonl';

/** A memory disk whose reads are tallied per path (every way a file's bytes can be read). */
function countingDisk() {
  const disk = createMemoryDisk();
  const read = new Map<string, number>();
  const tally = (path: string, n: number) => read.set(path, (read.get(path) ?? 0) + n);
  const counted: Disk = {
    ...disk,
    async read(path, start, end) {
      const bytes = await disk.read(path, start, end);
      tally(path, bytes.length);
      return bytes;
    },
    async blob(path) {
      const blob = await disk.blob(path);
      tally(path, blob.size);
      return blob;
    },
    async openReader(path) {
      const reader = await disk.openReader!(path);
      return {
        size: reader.size,
        read(start, end) {
          const bytes = reader.read(start, end);
          tally(path, bytes.length);
          return bytes;
        },
        close: () => reader.close(),
      };
    },
  };
  return { disk: counted, read };
}

const withoutTime = ({ modified: _, ...s }: SessionSummary) => s;

async function storedFixture() {
  const { disk, read } = countingDisk();
  const store = createStore(disk, { flushDelay: 0, reader: readAnyFormat });
  const bytes = new Uint8Array(readFileSync(FIXTURE));
  const id = String(JSON.parse(new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(10)))).id);
  // Stored as an import stores it: with its envelope index made on the way.
  const tap = indexNewSession(store, once(bytes), bytes.length);
  await store.create(id, tap.chunks, { reading: piReading(undefined, tap.record) });
  await tap.save(id);
  let n = 0;
  const files = createSessionFiles(store, { now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => `a${(++n).toString(16).padStart(7, '0')}` });
  return { disk, read, store, files, id, size: bytes.length };
}

/** What a store that never saw the append reads from the file. */
async function reread(disk: Disk, id: string): Promise<SessionSummary> {
  const fresh = createStore(disk, { flushDelay: 0, reader: readAnyFormat });
  await fresh.rebuild();
  return (await fresh.get(id))!;
}

describe('host append: the cost of the entry, not of the file', () => {
  test('appending one message reads none of the session’s bytes but its last byte and the fingerprint edges, and of its envelope index only the last block', async () => {
    const { disk, read, store, files, id, size } = await storedFixture();
    const session = await files.open(id);
    const indexSize = new Map<string, number>();
    for (const name of await disk.names('envelopes')) indexSize.set(`envelopes/${name}`, (await disk.size(`envelopes/${name}`))!);
    read.clear();
    const w = await files.append(id, session, [user('And the next step?')]);
    const path = w.summary.path;
    // The last byte (does the file end in "\n"?) and the 64-byte head and tail that fingerprint the envelope index.
    expect(read.get(path) ?? 0).toBeLessThanOrEqual(1 + 64 + 64);
    const others = [...read].filter(([p]) => p !== path && !p.startsWith('envelopes/'));
    expect(others).toEqual([]);
    // Of the envelope index, only its last block (what it covers) is read, and one block is added at its end.
    const envelopes = [...read].filter(([p]) => p.startsWith('envelopes/'));
    const envelopesRead = envelopes.reduce((n, [, b]) => n + b, 0);
    const [envelopePath] = envelopes[0];
    const indexBytes = indexSize.get(envelopePath)!;
    expect(indexBytes).toBeGreaterThan(8 * 1024);
    expect(envelopesRead).toBeLessThan(1024);
    expect((await disk.size(envelopePath))! - indexBytes).toBeLessThan(1024);
    expect(w.summary.size).toBe(await disk.size(path));
    expect(w.summary.size).toBeGreaterThan(size);

    // The envelope index was extended to the new size, and the record is what a full reading finds.
    const stored = await store.readEnvelopes!(id);
    expect(decodeEnvelopeIndex(stored!, () => new Uint8Array(0), { file: id })?.index.size).toBe(w.summary.size);
    expect(withoutTime(w.summary)).toEqual(withoutTime(await reread(disk, id)));
  });

  test('a branch from an older entry: counts, totals and usage as a full reading of the file gives them', async () => {
    const { disk, read, files, id } = await storedFixture();
    const session = await files.open(id);
    const before = await reread(disk, id);
    const onBranch = branch(session);
    const at = onBranch[Math.floor(onBranch.length / 2)] as Entry;
    read.clear();
    const w = await files.append(id, withLeaf(session, String(at.id)), [user('Try it another way.')]);
    expect(read.get(w.summary.path) ?? 0).toBeLessThanOrEqual(1 + 64 + 64);
    const after = await reread(disk, id);
    expect(withoutTime(w.summary)).toEqual(withoutTime(after));
    expect(after.branchCount).toBe(before.branchCount + 1);
    expect(after.totals).not.toEqual(before.totals);
  });
});
