// A stored envelope index with its appended blocks (envelope-records.ts) folded into one index again,
// when blocks pile up: what the reader reads of them, laid out as an index written whole.
import { decodeEnvelopeIndex, encodeEnvelopeIndex } from './envelope-file.ts';

const noBodies = () => new Uint8Array(0);

/** `file` (an index and its blocks) as one index with no blocks after its first; null when it is not one to read. */
export function compactEnvelopeFile(file: Uint8Array): Uint8Array | null {
  const decoded = decodeEnvelopeIndex(file, noBodies);
  if (!decoded) return null;
  try {
    return encodeEnvelopeIndex(decoded.index, decoded.fingerprint);
  } catch {
    return null;
  }
}
