/**
 * Plausible text for generated sessions: prose, code, file listings and tool output, built from a
 * fixed vocabulary so output is deterministic for a seed. Includes some non-ASCII and the raw
 * separators (U+2028, U+2029, U+0085) real files can hold, so framing bugs show up.
 */
import type { Rng } from './prng.ts';

const WORDS = (
  'the a to of and in is it that for on with as this be are file function test session ' +
  'entry branch parse read write line buffer error value result tool call model context message user ' +
  'assistant thinking compaction summary index tree leaf parent node cache token usage cost image ' +
  'config build check type schema field record import export return const let await async promise ' +
  'array string number object map set update render view worker store bytes offset length problem ' +
  'fix refactor rename move delete add change keep drop split join trim slice chunk stream'
).split(' ');
const UNICODE = ['naïve', 'café', 'Grüße', '日本語', 'emoji 🎉', 'Ω≈ç√', 'Ünïcödé', '→', '“quoted”'];
const RARE = ['\u2028', '\u2029', '\u0085', '\t', '"', '\\', '</summary>', '\r'];
const IDENTS = [
  'parseLine',
  'buildIndex',
  'readSession',
  'walkBranch',
  'appendEntry',
  'renderItem',
  'toolResult',
  'compactBranch',
  'loadBlob',
  'sessionStore',
  'messageView',
  'tokenCount',
];
const PATHS = [
  'src/core/parse.ts',
  'src/core/tree.ts',
  'src/ui/Reader.tsx',
  'package.json',
  'README.md',
  'src/storage/opfs.ts',
  'test/core/parse.test.ts',
  'docs/notes.md',
  'src/worker/api.ts',
];

/** A sentence of n words (with an occasional unusual character). */
export function sentence(rng: Rng, n = rng.int(4, 18)): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    if (rng.chance(0.02)) parts.push(rng.pick(UNICODE));
    else parts.push(rng.pick(WORDS));
  }
  if (rng.chance(0.01)) parts.push(rng.pick(RARE));
  const s = parts.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

/** A paragraph of prose. */
export function paragraph(rng: Rng, sentences = rng.int(1, 6)): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(sentence(rng));
  return out.join(' ');
}

/** Some TypeScript-looking code of about `lines` lines. */
export function code(rng: Rng, lines = rng.int(3, 40)): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const ident = rng.pick(IDENTS);
    const indent = '  '.repeat(rng.int(0, 3));
    switch (rng.int(0, 4)) {
      case 0:
        out.push(`${indent}export function ${ident}(input: string, opts = {}) {`);
        break;
      case 1:
        out.push(`${indent}const ${ident}${i} = await ${rng.pick(IDENTS)}(${JSON.stringify(rng.pick(WORDS))});`);
        break;
      case 2:
        out.push(`${indent}// ${sentence(rng, rng.int(3, 10))}`);
        break;
      case 3:
        out.push(`${indent}if (${ident}.length > ${rng.int(0, 999)}) return null;`);
        break;
      default:
        out.push(`${indent}}`);
    }
  }
  return out.join('\n');
}

/** A relative source path. */
export function path(rng: Rng): string {
  return rng.pick(PATHS);
}

/** Tool output text of roughly `bytes` bytes (numbered lines like a read tool, or a log). */
export function toolOutput(rng: Rng, bytes: number): string {
  const out: string[] = [];
  let size = 0;
  let n = 1;
  const numbered = rng.chance(0.5);
  while (size < bytes) {
    const line = rng.chance(0.6) ? code(rng, 1) : sentence(rng);
    const l = numbered ? `${String(n).padStart(5, ' ')}\t${line}` : line;
    out.push(l);
    size += l.length + 1;
    n++;
  }
  return out.join('\n');
}

/** Standard base64 of n pseudo-random bytes (what an inline image's `data` looks like). */
export function base64Bytes(rng: Rng, n: number): string {
  return Buffer.from(rng.bytes(n)).toString('base64');
}
