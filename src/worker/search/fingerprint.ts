// What the index keeps of the bytes a session's part was made from, so that a file found longer
// can be told grown (its old bytes still there, the rest appended) from one replaced by another:
// the checks of its first and of its last FINGERPRINT bytes, and whether it ended with "\n" (lines
// appended after a torn last line would change it). A file that grew is indexed from its new bytes
// alone (grow.ts) only when both checks still hold of its old length.
import type { ExtractState } from './extract.ts';
import { checksum } from './part.ts';

/** Bytes checked at each end. */
export const FINGERPRINT = 4096;

/** The ends of a file as they were indexed. */
export interface Fingerprint {
  head: number;
  tail: number;
  nl: boolean;
}

/** What reading lines appended to a session's file goes on from: where its reading left off, and the file's ends then. */
export interface Carry extends Fingerprint {
  state: ExtractState;
}

/** The fingerprint of bytes pushed in order (copied as needed: a chunk may be reused once `push` returns). */
export function createFingerprint() {
  const head = new Uint8Array(FINGERPRINT);
  let headLen = 0;
  // The last bytes seen: a ring of twice the size, folded down when full.
  let tail = new Uint8Array(2 * FINGERPRINT);
  let tailLen = 0;
  return {
    push(chunk: Uint8Array): void {
      if (headLen < FINGERPRINT) {
        const n = Math.min(FINGERPRINT - headLen, chunk.length);
        head.set(chunk.subarray(0, n), headLen);
        headLen += n;
      }
      const keep = chunk.length >= FINGERPRINT ? chunk.subarray(chunk.length - FINGERPRINT) : chunk;
      if (tailLen + keep.length > tail.length) {
        const from = Math.max(0, tailLen - (FINGERPRINT - keep.length));
        tail.copyWithin(0, from, tailLen);
        tailLen -= from;
      }
      tail.set(keep, tailLen);
      tailLen += keep.length;
    },
    finish(): Fingerprint {
      const last = tail.subarray(Math.max(0, tailLen - FINGERPRINT), tailLen);
      const print = { head: checksum(head.subarray(0, headLen)), tail: checksum(last), nl: last.length > 0 && last[last.length - 1] === 10 };
      tail = new Uint8Array(0);
      return print;
    },
  };
}

/** The fingerprint of whole bytes. */
export function fingerprintOf(bytes: Uint8Array): Fingerprint {
  const f = createFingerprint();
  f.push(bytes);
  return f.finish();
}
