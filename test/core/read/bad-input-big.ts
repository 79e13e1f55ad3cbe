// The big bad-input cases, made on demand (never committed): one huge single line,
// a very long single chain, and deeply nested JSON. Pure (TextEncoder only) so the same code runs
// in Node tests, the bench and Chromium (browser tests build Blobs from the parts in the page).

const enc = new TextEncoder();
const T = '2026-03-04T05:06:07.000Z';

/** The header line of a generated case. */
function headerLine(id: string): string {
  return JSON.stringify({ type: 'session', version: 3, id, timestamp: T, cwd: '/home/u/big' });
}

/** What a big case is and what reading it must give. */
export interface BigCase {
  name: string;
  id: string;
  /** The file as parts (join them for the bytes; a Blob takes them as they are). */
  parts: Uint8Array[];
  size: number;
  /** Entries every reader must keep, and the length of the leaf's branch. */
  entries: number;
  branch: number;
  leafId: string;
}

function make(name: string, id: string, parts: Uint8Array[], entries: number, branch: number, leafId: string): BigCase {
  return { name, id, parts, size: parts.reduce((n, p) => n + p.length, 0), entries, branch, leafId };
}

/** A session whose second line is one message of about `mb` MB (a 50 MB single line at full size). */
export function hugeLine(mb: number): BigCase {
  const id = `b1900000-0000-7000-8000-${String(mb).padStart(12, '0')}`;
  // Text with escapes and non-ASCII, so the line is not just one repeated byte.
  const unit = 'lorem ipsum "quoted" \\ back\\slash \u00e9t\u00e9 \u2603 tab\t ';
  const reps = Math.ceil((mb * 1024 * 1024) / enc.encode(JSON.stringify(unit)).length);
  const before = enc.encode(
    `${headerLine(id)}\n{"type":"message","id":"h0000001","parentId":null,"timestamp":"${T}","message":{"role":"user","timestamp":1,"content":`,
  );
  const piece = JSON.stringify(unit).slice(1, -1);
  // One string value built from a repeated chunk of about 1 MB.
  const perChunk = Math.max(1, Math.floor(reps / Math.max(1, mb)));
  const chunk = enc.encode(piece.repeat(perChunk));
  const parts: Uint8Array[] = [before, enc.encode('"')];
  for (let done = 0; done < reps; done += perChunk) parts.push(chunk);
  parts.push(enc.encode('"}}\n'));
  parts.push(
    enc.encode(
      JSON.stringify({
        type: 'message',
        id: 'h0000002',
        parentId: 'h0000001',
        timestamp: T,
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: 'after the huge line' }],
          api: 'anthropic-messages',
          provider: 'anthropic',
          model: 'claude-x',
          usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
          stopReason: 'stop',
          timestamp: 2,
        },
      }) + '\n',
    ),
  );
  return make(`huge-line-${mb}mb.jsonl`, id, parts, 2, 2, 'h0000002');
}

/** A session of `n` entries in one chain (200,000 at full size). */
export function longChain(n: number): BigCase {
  const id = `c4a10000-0000-7000-8000-${String(n).padStart(12, '0')}`;
  const lines: string[] = [headerLine(id)];
  let parent: string | null = null;
  for (let i = 0; i < n; i++) {
    const eid = i.toString(16).padStart(8, '0');
    lines.push(
      `{"type":"custom","id":"${eid}","parentId":${parent === null ? 'null' : `"${parent}"`},"timestamp":"${T}","customType":"step","data":{"i":${i}}}`,
    );
    parent = eid;
  }
  // Parts of about 1 MB, so a Blob can be built without one giant string.
  const parts: Uint8Array[] = [];
  for (let i = 0; i < lines.length; i += 10000) parts.push(enc.encode(lines.slice(i, i + 10000).join('\n') + '\n'));
  return make(`long-chain-${n}.jsonl`, id, parts, n, n, (n - 1).toString(16).padStart(8, '0'));
}

/** A session with one entry whose field nests `depth` arrays and objects (100,000 at full size). */
export function deepNesting(depth: number): BigCase {
  const id = `d0000000-0000-7000-8000-${String(depth).padStart(12, '0')}`;
  const open = '[{"a":'.repeat(depth / 2);
  const close = '}]'.repeat(depth / 2);
  const parts = [
    enc.encode(`${headerLine(id)}\n`),
    enc.encode(`{"type":"message","id":"n0000001","parentId":null,"timestamp":"${T}","message":{"role":"user","timestamp":1,"content":"deep"}}\n`),
    enc.encode(`{"type":"custom","id":"n0000002","parentId":"n0000001","timestamp":"${T}","customType":"deep","data":${open}0${close}}\n`),
    enc.encode(
      `{"type":"message","id":"n0000003","parentId":"n0000002","timestamp":"${T}","message":{"role":"user","timestamp":2,"content":${open}0${close}}}\n`,
    ),
    enc.encode(`{"type":"message","id":"n0000004","parentId":"n0000003","timestamp":"${T}","message":{"role":"user","timestamp":3,"content":"after"}}\n`),
  ];
  return make(`deep-nesting-${depth}.jsonl`, id, parts, 4, 4, 'n0000004');
}

/** The parts joined into one array of bytes. */
export function bytesOf(c: BigCase): Uint8Array {
  const out = new Uint8Array(c.size);
  let at = 0;
  for (const p of c.parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Sizes for `npm test` (modest: the whole test set must stay fast) and for the bench (full sizes). */
export const TEST_SIZES = { lineMb: 6, chain: 30_000, depth: 100_000 };
/** Smaller again in Chromium's tests (each import also writes OPFS and indexes). */
export const BROWSER_SIZES = { lineMb: 2, chain: 10_000, depth: 100_000 };
export const FULL_SIZES = { lineMb: 50, chain: 200_000, depth: 100_000 };
