// A session's part of the index, as made at import (or a rebuild) from its entry documents:
//   words   its distinct words, space-separated (MiniSearch's document; word i is term i below)
//   facts   binary, read when a query looks at the session: each entry's kind, flags, time and tools,
//           then each term's postings (the entries holding it), and where each text chunk lies
//   texts   the entries' ids and texts, in chunks of about TEXT_CHUNK characters, each compressed on
//           its own (lz.ts): a query reads only the chunks of the hits it shows (and of a phrase's candidates)
// So a query decides which entries match, and which pass the entry filters, from the facts alone.
import type { EntryDoc, EntryKind } from './extract.ts';
import { compress, decompress } from './lz.ts';
import { TermTable } from './terms.ts';
import { In, Out } from './varint.ts';

/** Characters of text gathered into one chunk (compressed alone). */
const TEXT_CHUNK = 24 * 1024;
/** Entry kinds by their code in the facts. */
export const KINDS: EntryKind[] = ['user', 'assistant', 'tool', 'bash', 'summary', 'compaction', 'notice', 'label', 'title'];
/** Each entry kind's code. */
export const KIND_CODE = new Map(KINDS.map((k, i) => [k, i]));
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NONE: string[] = [];

/** A part as built, ready to be written. */
export interface BuiltPart {
  words: string;
  facts: Uint8Array;
  texts: Uint8Array;
}

/** FNV-1a over bytes: each record's check (a damaged record is rebuilt, never read as another). */
export function checksum(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

/**
 * Writes entries `docs` (entry `first` on) as facts (`writeEntryFacts`); their texts go into `table`
 * as postings (entry numbers from `first`).
 */
export function writeEntries(out: Out, table: TermTable, docs: readonly EntryDoc[], first: number): void {
  for (let di = 0; di < docs.length; di++) {
    table.addText(docs[di].text, first + di);
    // Tool names are the session's words (tool:… finds them) but not an entry's: its text is what it holds.
    for (const t of docs[di].tools ?? []) table.addTerms(t);
  }
  writeEntryFacts(
    out,
    docs.map((d) => d.kind),
    docs.map((d) => d.flags),
    docs.map((d) => d.ts),
    docs.map((d) => d.tools ?? NONE),
  );
}

/** Writes each entry's kind, flags, time and tools (as numbers), then the tools' names in the order first met. */
export function writeEntryFacts(
  out: Out,
  kinds: readonly EntryKind[],
  flags: ArrayLike<number>,
  ts: ArrayLike<number>,
  tools: readonly (readonly string[])[],
): void {
  const names = new Map<string, number>();
  for (let i = 0; i < kinds.length; i++) {
    out.uint(KIND_CODE.get(kinds[i]) ?? 0);
    out.uint(flags[i]);
    out.f64(ts[i]);
    out.uint(tools[i].length);
    for (const t of tools[i]) {
      let k = names.get(t);
      if (k === undefined) names.set(t, (k = names.size));
      out.uint(k);
    }
  }
  out.bytes(encoder.encode(JSON.stringify([...names.keys()])));
}

/** Reads what `writeEntries` wrote of `n` entries into the arrays from index `at`. */
export function readEntries(r: In, n: number, p: Pick<Part, 'kinds' | 'flags' | 'ts' | 'tools'>, at: number): void {
  const toolIdx: number[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const k = KINDS[r.uint()];
    if (!k) throw new Error('bad kind');
    p.kinds[at + i] = k;
    p.flags[at + i] = r.uint();
    p.ts[at + i] = r.f64();
    const m = r.uint();
    const list: number[] = [];
    for (let j = 0; j < m; j++) list.push(r.uint());
    toolIdx[i] = list;
  }
  const names = JSON.parse(decoder.decode(r.bytes())) as string[];
  for (let i = 0; i < n; i++) p.tools[at + i] = toolIdx[i].length ? toolIdx[i].map((k) => names[k]) : NONE;
}

/** Writes the texts of entries `docs` (entry `first` on) as compressed chunks; where each lies goes into `out`. */
export function writeTexts(out: Out, docs: readonly EntryDoc[], first: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  const starts: number[] = [];
  for (let a = 0; a < docs.length; ) {
    let chars = 0;
    let b = a;
    while (b < docs.length && chunkTakes(chars, docs[b].text.length, b - a)) chars += docs[b++].text.length;
    starts.push(first + a);
    chunks.push(encodeChunk(docs, a, b));
    a = b;
  }
  return writeChunkTable(out, starts, chunks);
}

/** Whether a chunk of `chars` characters (and at least one entry) takes an entry of `more` characters too (writeTexts' rule). */
export const chunkTakes = (chars: number, more: number, entries: number) => entries === 0 || chars + more <= TEXT_CHUNK;

/** Entries [a, b) of `docs` as one compressed chunk: a header of lengths (UTF-16 units), then the ids and texts as UTF-8. */
export function encodeChunk(docs: readonly Pick<EntryDoc, 'id' | 'text'>[], a: number, b: number): Uint8Array {
  const head = new Out();
  head.uint(b - a);
  const body: string[] = [];
  for (let i = a; i < b; i++) {
    head.uint(docs[i].id.length);
    head.uint(docs[i].text.length);
    body.push(docs[i].id, docs[i].text);
  }
  const h = head.done();
  const text = encoder.encode(body.join(''));
  const raw = new Uint8Array(h.length + text.length);
  raw.set(h);
  raw.set(text, h.length);
  return compress(raw);
}

/** Writes where each chunk lies (its first entry, length and check) into `out`; the chunks as one region. */
export function writeChunkTable(out: Out, starts: readonly number[], chunks: readonly Uint8Array[]): Uint8Array {
  out.uint(chunks.length);
  let total = 0;
  for (let k = 0; k < chunks.length; k++) {
    out.uint(starts[k]);
    out.uint(chunks[k].length);
    out.uint(checksum(chunks[k]));
    total += chunks[k].length;
  }
  const texts = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    texts.set(c, at);
    at += c.length;
  }
  return texts;
}

/** Reads where the chunks `writeTexts` wrote lie (record `rec` of the session). */
export function readChunks(r: In, rec: number): Part['chunks'] {
  const c = r.uint();
  const chunks: Part['chunks'] = [];
  let from = 0;
  for (let k = 0; k < c; k++) {
    const first = r.uint();
    const len = r.uint();
    chunks.push({ first, from, to: from + len, sum: r.uint(), rec });
    from += len;
  }
  return chunks;
}

/** Builds a session's part from its entry documents: one pass over each text for its words and postings. */
export function buildPart(docs: readonly EntryDoc[]): BuiltPart {
  const table = new TermTable();
  const out = new Out();
  out.uint(docs.length);
  writeEntries(out, table, docs, 0);
  writePostings(out, table);
  const texts = writeTexts(out, docs, 0);
  return { words: table.terms.join(' '), facts: out.done(), texts };
}

/** Writes each term's postings (a count, then entries as gaps from the last), in the table's order. */
export function writePostings(out: Out, table: TermTable): void {
  const terms = table.terms;
  out.uint(terms.length);
  for (let t = 0; t < terms.length; t++) {
    out.uint(table.size(t));
    let prev = 0;
    table.forEachPosting(t, (e) => {
      out.uint(e - prev);
      prev = e;
    });
  }
}

/** A session's facts as a query reads them. */
export interface Part {
  terms: string[];
  kinds: EntryKind[];
  flags: Uint8Array;
  ts: Float64Array;
  /** Each entry's tools, lowercase (empty for most). */
  tools: string[][];
  /** Where each term of the first record's postings start in `bytes`. */
  at: Uint32Array;
  bytes: Uint8Array;
  /** The records appended after it (part-delta.ts): where each term they post to starts in their bytes. */
  more?: Array<{ at: Map<number, number>; bytes: Uint8Array }>;
  /** Each chunk's first entry, [start, end) in the texts region of record `rec` (0: the first), and check. */
  chunks: Array<{ first: number; from: number; to: number; sum: number; rec: number }>;
  /** Bytes this takes in memory (about). */
  size: number;
  index?: Map<string, number>;
}

/** Reads a part's facts (throws when they do not hold together: the caller rebuilds it). */
export function decodePart(words: string, facts: Uint8Array): Part {
  const r = new In(facts);
  const n = r.uint();
  const p = { kinds: new Array<EntryKind>(n), flags: new Uint8Array(n), ts: new Float64Array(n), tools: new Array<string[]>(n) };
  readEntries(r, n, p, 0);
  const terms = words ? words.split(' ') : [];
  if (r.uint() !== terms.length) throw new Error('terms');
  const at = new Uint32Array(terms.length);
  for (let t = 0; t < terms.length; t++) {
    at[t] = r.at;
    const m = r.uint();
    for (let j = 0; j < m; j++) r.uint();
  }
  const chunks = readChunks(r, 0);
  if (r.at !== facts.length) throw new Error('length');
  return { terms, ...p, at, bytes: facts, chunks, size: facts.length + words.length * 2 + n * 24 };
}

/** The entries holding term t (ascending). */
export function postings(p: Part, t: number): number[] {
  const out: number[] = [];
  if (t < p.at.length) readPostings(p.bytes, p.at[t], out);
  for (const x of p.more ?? []) {
    const at = x.at.get(t);
    if (at !== undefined) readPostings(x.bytes, at, out);
  }
  return out;
}

// Adds the postings written at `at` (a count, then entries as gaps from the last) to `out`.
function readPostings(bytes: Uint8Array, at: number, out: number[]): void {
  const r = new In(bytes);
  r.at = at;
  const m = r.uint();
  let e = 0;
  for (let j = 0; j < m; j++) out.push((e += r.uint()));
}

/** The index of a term in the part, or -1. */
export function termIndex(p: Part, term: string): number {
  if (!p.index) p.index = new Map(p.terms.map((t, i) => [t, i]));
  return p.index.get(term) ?? -1;
}

/** The chunk holding entry e. */
export function chunkOf(p: Part, e: number): number {
  let lo = 0;
  let hi = p.chunks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (p.chunks[mid].first <= e) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A chunk's entries ([id, text] from its first entry on), or null when its bytes are damaged. */
export function decodeChunk(bytes: Uint8Array, sum: number): Array<[string, string]> | null {
  if (checksum(bytes) !== sum) return null;
  try {
    const raw = decompress(bytes);
    const r = new In(raw);
    const n = r.uint();
    const lens: number[] = [];
    let want = 0;
    for (let i = 0; i < 2 * n; i++) want += lens[i] = r.uint();
    const text = decoder.decode(raw.subarray(r.at));
    if (text.length !== want) return null;
    const out: Array<[string, string]> = [];
    let at = 0;
    for (let i = 0; i < lens.length; i += 2) {
      out.push([text.slice(at, at + lens[i]), text.slice(at + lens[i], at + lens[i] + lens[i + 1])]);
      at += lens[i] + lens[i + 1];
    }
    return out;
  } catch {
    return null;
  }
}
