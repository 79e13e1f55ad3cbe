// Entries appended to a session, indexed without indexing it again: a delta record beside its part
// (part.ts) holding only the new entries:
//   words   the words first met in them (term numbers go on from the words before)
//   facts   the number of entries before them and of them; each one's kind, flags, time and tools;
//           the number of terms after them; for each term they hold (old or new), its postings
//           among them; where their text chunks lie
//   texts   their ids and texts, in chunks as a part's
// A query reads the part and its deltas as one (`decodeParts`); `foldParts` makes them one part again.
import type { EntryDoc, EntryKind } from './extract.ts';
import { type BuiltPart, type Part, postings, readChunks, readEntries, writeEntries, writeEntryFacts, writeTexts } from './part.ts';
import { TermTable } from './terms.ts';
import { In, Out } from './varint.ts';

/** A record's words and facts, as read. */
export interface RecordRead {
  words: string;
  facts: Uint8Array;
}

const split = (words: string) => (words ? words.split(' ') : []);

/** The delta of entries `docs`, appended after `first` entries whose words (in term order) are `words`. */
export function buildDelta(words: string, first: number, docs: readonly EntryDoc[]): BuiltPart {
  const before = split(words);
  const table = new TermTable();
  table.seed(before);
  const out = new Out();
  out.uint(first);
  out.uint(docs.length);
  writeEntries(out, table, docs, first);
  const terms = table.terms;
  out.uint(terms.length);
  const held: number[] = [];
  for (let t = 0; t < terms.length; t++) if (table.size(t)) held.push(t);
  out.uint(held.length);
  let prevTerm = 0;
  for (const t of held) {
    out.uint(t - prevTerm);
    prevTerm = t;
    out.uint(table.size(t));
    let prev = 0;
    table.forEachPosting(t, (e) => {
      out.uint(e - prev);
      prev = e;
    });
  }
  const texts = writeTexts(out, docs, first);
  return { words: terms.slice(before.length).join(' '), facts: out.done(), texts };
}

/** A part read with its deltas, in order, as one (throws when they do not hold together: the caller rebuilds it). */
export function decodeParts(base: Part, deltas: readonly RecordRead[]): Part {
  if (!deltas.length) return base;
  const terms = base.terms.slice();
  const kinds: EntryKind[] = base.kinds.slice();
  const tools = base.tools.slice();
  const flags: number[] = Array.from(base.flags);
  const ts: number[] = Array.from(base.ts);
  const chunks = base.chunks.slice();
  const more: NonNullable<Part['more']> = [];
  let size = base.size;
  deltas.forEach(({ words, facts }, d) => {
    const r = new In(facts);
    if (r.uint() !== kinds.length) throw new Error('entries');
    const m = r.uint();
    const added = { kinds: new Array<EntryKind>(m), flags: new Uint8Array(m), ts: new Float64Array(m), tools: new Array<string[]>(m) };
    readEntries(r, m, added, 0);
    for (let i = 0; i < m; i++) {
      kinds.push(added.kinds[i]);
      flags.push(added.flags[i]);
      ts.push(added.ts[i]);
      tools.push(added.tools[i]);
    }
    for (const w of split(words)) terms.push(w);
    if (r.uint() !== terms.length) throw new Error('terms');
    const at = new Map<number, number>();
    let t = 0;
    for (let k = r.uint(); k > 0; k--) {
      t += r.uint();
      if (t >= terms.length) throw new Error('term');
      at.set(t, r.at);
      for (let j = r.uint(); j > 0; j--) r.uint();
    }
    for (const c of readChunks(r, d + 1)) chunks.push(c);
    if (r.at !== facts.length) throw new Error('length');
    more.push({ at, bytes: facts });
    size += facts.length + words.length * 2 + m * 24;
  });
  return { terms, kinds, flags: Uint8Array.from(flags), ts: Float64Array.from(ts), tools, at: base.at, bytes: base.bytes, more, chunks, size };
}

/** A part and its deltas (as `decodeParts` read them, with each record's texts in order) written as one part. */
export function foldParts(p: Part, texts: readonly Uint8Array[]): BuiltPart {
  const out = new Out();
  const n = p.kinds.length;
  out.uint(n);
  writeEntryFacts(out, p.kinds, p.flags, p.ts, p.tools);
  out.uint(p.terms.length);
  for (let t = 0; t < p.terms.length; t++) {
    const list = postings(p, t);
    out.uint(list.length);
    let prev = 0;
    for (const e of list) {
      out.uint(e - prev);
      prev = e;
    }
  }
  // The chunks keep their bytes: the records' texts one after another.
  const starts: number[] = [];
  let total = 0;
  for (const t of texts) {
    starts.push(total);
    total += t.length;
  }
  out.uint(p.chunks.length);
  let at = 0;
  for (const c of p.chunks) {
    if (c.rec >= texts.length || starts[c.rec] + c.from !== at || c.to > texts[c.rec].length) throw new Error('chunk');
    at += c.to - c.from;
    out.uint(c.first);
    out.uint(c.to - c.from);
    out.uint(c.sum);
  }
  if (at !== total) throw new Error('texts');
  const all = new Uint8Array(total);
  texts.forEach((t, i) => all.set(t, starts[i]));
  return { words: p.terms.join(' '), facts: out.done(), texts: all };
}
