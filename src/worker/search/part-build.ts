// A session's part built entry by entry, as its documents come (an import hands them over while it
// parses): each text is tokenized into the term table when it comes, and each text chunk compressed
// as soon as it is full, so what is left for the end is the facts' small tables. The bytes are
// those `buildPart` makes of the same documents at once.
import type { EntryDoc, EntryKind } from './extract.ts';
import { type BuiltPart, chunkTakes, encodeChunk, writeChunkTable, writeEntryFacts, writePostings } from './part.ts';
import { TermTable } from './terms.ts';
import { Out } from './varint.ts';

const NONE: readonly string[] = [];

/** A part made entry by entry: `add` each document in order, then `finish`. */
export interface PartBuilder {
  add(doc: EntryDoc): void;
  finish(): BuiltPart;
}

/** Builds a session's part from its documents as they come (the bytes of `buildPart` over all of them). */
export function createPartBuilder(): PartBuilder {
  const table = new TermTable();
  const kinds: EntryKind[] = [];
  const flags: number[] = [];
  const ts: number[] = [];
  const tools: Array<readonly string[]> = [];
  // The chunk being gathered (its entries' ids and texts), and the chunks made.
  let open: Array<Pick<EntryDoc, 'id' | 'text'>> = [];
  let chars = 0;
  const starts: number[] = [];
  const chunks: Uint8Array[] = [];
  // Compresses the chunk gathered so far (its entries are the last `open.length` of `n`).
  const close = (n: number) => {
    if (!open.length) return;
    starts.push(n - open.length);
    chunks.push(encodeChunk(open, 0, open.length));
    open = [];
    chars = 0;
  };
  return {
    add(doc) {
      const n = kinds.length;
      if (!chunkTakes(chars, doc.text.length, open.length)) close(n);
      table.addText(doc.text, n);
      // Tool names are the session's words (tool:… finds them) but not an entry's: its text is what it holds.
      for (const t of doc.tools ?? NONE) table.addTerms(t);
      kinds.push(doc.kind);
      flags.push(doc.flags);
      ts.push(doc.ts);
      tools.push(doc.tools ?? NONE);
      open.push({ id: doc.id, text: doc.text });
      chars += doc.text.length;
    },
    finish() {
      const n = kinds.length;
      close(n);
      const out = new Out();
      out.uint(n);
      writeEntryFacts(out, kinds, flags, ts, tools);
      writePostings(out, table);
      const texts = writeChunkTable(out, starts, chunks);
      return { words: table.terms.join(' '), facts: out.done(), texts };
    },
  };
}
