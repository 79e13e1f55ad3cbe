// The stored envelope index (envelope-file.ts) built from a session's bytes as they stream past,
// e.g. while an import writes them, so that no second read of the file is needed for it: the
// first whole lines (the header's) are indexed as `indexEnvelopes` does, every later chunk's whole
// lines are added by the scanner alone. Started from a stored index, it extends that one by the
// bytes of an append. Where the result could differ from indexing the whole file (a line the
// scanner leaves to JSON.parse, a v1 session, a last line without "\n"), it gives up (null) and
// the reader indexes the file on its first open instead. Started from the state a stored index ends
// with, it gives the block of just the appended entries (envelope-records.ts), to add at its end.
import { addPlainLines, type GrowingEntries, growable, growingEntries, grownIndex } from './envelope-append.ts';
import { encodeEnvelopeIndex, FINGERPRINT_BYTES, fingerprintOf } from './envelope-file.ts';
import { encodeRecordBlock, type IndexState } from './envelope-records.ts';
import { type EnvelopeIndex, indexEnvelopes } from './envelopes.ts';

/** Feeds a session's bytes in order; `finish` gives the stored index of all of them, or null. */
export interface EnvelopeIndexer {
  push(chunk: Uint8Array): void;
  /**
   * With `records`: each record of the file as the core's line pass parsed it (its line, and its
   * byte range without the "\n"), in file order, each after the chunk holding its "\n" was pushed;
   * `clean`: no problem was found since the record before (core `DigestOptions.onRecordAt`).
   */
  record?(value: Record<string, unknown>, line: number, start: number, end: number, clean: boolean): void;
  /**
   * The encoded index (with its fingerprint) of every byte pushed, or, started from a stored index,
   * the block to append to it; null when this way cannot give the full scan's answer.
   */
  finish(): Uint8Array | null;
}

/** Where an extension starts: the state the stored index of the bytes before the append ends with, and their first and last FINGERPRINT_BYTES bytes. */
export interface IndexedPrefix {
  state: IndexState;
  head: Uint8Array;
  last: Uint8Array;
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

const noBodies = () => {
  throw new Error('an index being built reads no bodies');
};

/**
 * The first line of `whole` (whole lines), or its first two when the first holds no header (an omp
 * title slot before it); null when that second line is still to come.
 */
function headLines(whole: Uint8Array): Uint8Array | null {
  const one = whole.indexOf(10) + 1;
  if (indexEnvelopes(whole.subarray(0, one)).header) return whole.subarray(0, one);
  if (one >= whole.length) return null;
  return whole.subarray(0, whole.indexOf(10, one) + 1);
}

/**
 * An indexer for a whole session (no `from`) or for the bytes appended to `from`. With `records`
 * (a whole session read by the core's line pass as it streams, e.g. an import's digest), the lines
 * after the first chunk's are indexed from the records that pass parsed (`record`) instead of
 * being scanned again: the full scan's envelopes are JSON.parse's (envelopes.ts), so the records
 * give the same ones. It gives up where a line is no record (not an object, blank), where a
 * problem was found past the head (bad UTF-8…), or where the full scan would read a line another
 * way (a second header, an id that is not a string).
 */
export function createEnvelopeIndexer(from?: IndexedPrefix, opts: { records?: boolean } = {}): EnvelopeIndexer {
  const byRecords = !from && opts.records === true;
  // With records: where the next record must start (every byte after the head is some record's line).
  let next = 0;
  let failed = false;
  let size = from ? from.state.size : 0;
  let head: Uint8Array = from ? from.head.slice(0, FINGERPRINT_BYTES) : new Uint8Array(0);
  let last: Uint8Array = from ? from.last.slice(-FINGERPRINT_BYTES) : new Uint8Array(0);
  // The index so far (of the bytes before `pending`) and its grown entries; none until the first whole lines.
  let base: EnvelopeIndex | null = null;
  let grown: GrowingEntries | null = null;
  let indexed = 0;
  // Bytes after the last "\n" seen (copied: the caller may reuse its buffers).
  let pending: Uint8Array[] = [];
  if (from) {
    const { state } = from;
    if (!state.growable || state.size === 0 || last[last.length - 1] !== 10) failed = true;
    else {
      grown = { types: [], ids: [], parentIds: [], lines: [], starts: [], ends: [], lineCount: state.lineCount };
      indexed = state.size;
    }
  }

  const keepEdges = (chunk: Uint8Array) => {
    if (head.length < FINGERPRINT_BYTES) head = join(head, chunk.subarray(0, FINGERPRINT_BYTES - head.length));
    last = chunk.length >= FINGERPRINT_BYTES ? chunk.slice(-FINGERPRINT_BYTES) : join(last, chunk).slice(-FINGERPRINT_BYTES);
  };

  const pendingWith = (piece: Uint8Array) => {
    if (!pending.length) return piece;
    const parts = [...pending, piece];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    pending = [];
    return out;
  };

  return {
    push(chunk) {
      if (failed || chunk.length === 0) return;
      keepEdges(chunk);
      size += chunk.length;
      // Past the head, the records tell the lines.
      if (byRecords && grown !== null) return;
      const lastNl = chunk.lastIndexOf(10);
      if (lastNl < 0) {
        pending.push(chunk.slice());
        return;
      }
      if (grown === null) {
        // The first whole lines: the header (or title slot and header), read as the full scan reads
        // them; with records, only up to the header's line (the records tell the rest).
        const whole = pendingWith(chunk.subarray(0, lastNl + 1));
        const first = byRecords ? headLines(whole) : whole;
        if (!first) {
          // Copied: the caller may reuse its buffers.
          pending.push(whole.slice(), chunk.slice(lastNl + 1));
          return;
        }
        base = indexEnvelopes(first);
        if (!growable(base, 10)) {
          failed = true;
          pending = [];
          return;
        }
        base.bytes = new Uint8Array(0);
        grown = growingEntries(base);
        indexed = first.length;
        next = indexed;
        if (byRecords) return;
      } else {
        // The line the previous chunk began, then this chunk's whole lines where they lie.
        const firstNl = chunk.indexOf(10);
        const joined = pendingWith(chunk.subarray(0, firstNl + 1));
        const ok = addPlainLines(grown, joined, indexed) && addPlainLines(grown, chunk.subarray(firstNl + 1, lastNl + 1), indexed + joined.length);
        if (!ok) {
          failed = true;
          pending = [];
          return;
        }
        indexed += joined.length + (lastNl - firstNl);
      }
      if (lastNl + 1 < chunk.length) pending.push(chunk.slice(lastNl + 1));
    },
    record(value, line, start, end, clean) {
      // A record before the head is read (an omp title slot, its header still to come) is a head line.
      if (!byRecords || failed || grown === null || start < indexed) return;
      const id = value.id;
      const parentId = value.parentId;
      if (
        !clean ||
        start !== next ||
        line !== grown.lineCount + 1 ||
        value.type === 'session' ||
        (id !== undefined && typeof id !== 'string') ||
        (parentId != null && typeof parentId !== 'string')
      ) {
        failed = true;
        return;
      }
      grown.lineCount++;
      grown.types.push(typeof value.type === 'string' ? value.type : undefined);
      grown.ids.push(id);
      grown.parentIds.push(parentId as string | null | undefined);
      grown.lines.push(line);
      grown.starts.push(start);
      grown.ends.push(end);
      next = end + 1;
    },
    finish() {
      if (byRecords && next !== size) return null;
      // A last line without "\n" is read by JSON.parse in the full scan (and is where an append would tear it).
      if (failed || grown === null || pending.length) return null;
      // The fingerprint's bytes are the first and the last FINGERPRINT_BYTES bytes, kept as they passed.
      const edges = (start: number, end: number) => (start === 0 ? head.subarray(0, end) : last.subarray(last.length - (size - start)));
      if (from) {
        const { lineCount, ...entries } = grown;
        const state = { ...from.state, size, fingerprint: fingerprintOf(size, edges), count: from.state.count + entries.ids.length, lineCount };
        return encodeRecordBlock(state, entries);
      }
      if (base === null) return null;
      const index = grownIndex(base, grown, size, noBodies);
      try {
        return encodeEnvelopeIndex(index, fingerprintOf(size, edges));
      } catch {
        // Not storable (more than 65,535 entry types): the first open indexes the file.
        return null;
      }
    },
  };
}
