// A pack's plaintext (docs/sync-format.md): "RHOSYNC1\n", the JSON header's length, the header,
// then the segments' bytes in the header's order.
import { concat, fromUtf8, utf8 } from './bytes.ts';

const MAGIC = 'RHOSYNC1\n';

/** The bytes [from, to) of a version of session `key`, on top of the version `(from, base)`. */
export interface Segment {
  key: string;
  path?: string;
  from: number;
  to: number;
  base: string;
  id: string;
}

export interface TrashRecord {
  key: string;
  size: number;
  id: string;
  at: number;
}

export interface PackHeader {
  device: string;
  seq: number;
  at: number;
  name: string;
  cursors: Record<string, number>;
  left?: boolean;
  segments: Segment[];
  trash: TrashRecord[];
  replaces?: number[];
}

/** A segment with its bytes. */
export interface SegmentBytes extends Segment {
  bytes: Uint8Array;
}

export interface Pack {
  header: PackHeader;
  segments: SegmentBytes[];
}

export function encodePack(header: PackHeader, bytes: Uint8Array[]): Uint8Array {
  const json = utf8(JSON.stringify(header));
  return concat([utf8(`${MAGIC}${json.length}\n`), json, ...bytes]);
}

const isStr = (x: unknown): x is string => typeof x === 'string';
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

function checkSegment(s: Segment): boolean {
  return isStr(s.key) && isStr(s.base) && isStr(s.id) && isNum(s.from) && isNum(s.to) && s.to >= s.from && (s.path === undefined || isStr(s.path));
}

/**
 * A pack's header from the first bytes of its plaintext: the header and where the segments start,
 * or how many bytes it needs when `start` stops short of it. Throws an Error naming what is wrong.
 */
export function packHeaderOf(start: Uint8Array): { header: PackHeader; end: number } | { need: number } {
  if (start.length < MAGIC.length) return { need: MAGIC.length + 21 };
  if (fromUtf8(start.subarray(0, MAGIC.length)) !== MAGIC) throw new Error('not a pack (no RHOSYNC1 mark)');
  const nl = start.indexOf(10, MAGIC.length);
  if (nl < 0 && start.length < MAGIC.length + 21) return { need: MAGIC.length + 21 };
  const length = Number(fromUtf8(start.subarray(MAGIC.length, nl)));
  if (nl < 0 || !isNum(length)) throw new Error('a pack without a header length');
  const end = nl + 1 + length;
  if (end > start.length) return { need: end };
  const header = JSON.parse(fromUtf8(start.subarray(nl + 1, end))) as PackHeader;
  if (!header || !Array.isArray(header.segments) || !Array.isArray(header.trash) || !isNum(header.seq) || !isStr(header.device))
    throw new Error('a pack header without its fields');
  for (const s of header.segments) if (!checkSegment(s)) throw new Error('a segment without its fields');
  return { header, end };
}

/** Reads a pack's plaintext; throws an Error naming what is wrong. */
export function decodePack(plain: Uint8Array): Pack {
  const found = packHeaderOf(plain);
  if ('need' in found) throw new Error('a pack cut short in its header');
  const { header } = found;
  let at = found.end;
  const segments: SegmentBytes[] = [];
  for (const s of header.segments) {
    const end = at + (s.to - s.from);
    if (end > plain.length) throw new Error('a segment runs past the end of its pack');
    segments.push({ ...s, bytes: plain.subarray(at, end) });
    at = end;
  }
  if (at !== plain.length) throw new Error('bytes after the last segment');
  return { header, segments };
}
