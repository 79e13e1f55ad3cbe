// Reading a session file (§0.1): the line pass (read/line-pass.ts) keeping every record.
export { headerProblems, isHeader, versionOf } from './head.ts';
export { checkEnvelope } from './line-pass.ts';
import { forEachRecord, recordStream } from './record-stream.ts';
import { type LinePassResult, linePass } from './line-pass.ts';
import { branch } from '../tree/tree.ts';
import type { Entry, ParseOptions, ParsedSession, SessionRecord } from '../schema/types.ts';

/**
 * Parses a session file's text or bytes: every record in file order with its byte range, the
 * header, the omp title slot, the entries (v1/v2 migrated in memory), the id index, the leaf and
 * every problem with its line. Never throws on bad input.
 */
export function parse(input: string | Uint8Array, opts: ParseOptions = {}): ParsedSession {
  if (typeof input !== 'string') return parseChunks([input], opts);
  const pass = linePass({ validate: opts.validate, records: true });
  return parsed(pass.finish(forEachRecord(input, pass.problems, pass.visit)), opts);
}

/** A session parser fed a file's bytes in order, a piece at a time: `finish()` gives what `parse` gives for the whole file. */
export interface SessionParser {
  push(chunk: Uint8Array): void;
  finish(): ParsedSession;
}

/**
 * Parses a session from its bytes as they are read (a file read in chunks is never held whole,
 * so opening needs the parsed values and one chunk, not the file besides). Chunks may be reused
 * by the caller once `push` returns.
 */
export function sessionParser(opts: ParseOptions = {}): SessionParser {
  const pass = linePass({ validate: opts.validate, records: true });
  const stream = recordStream(pass.problems, pass.visit);
  return {
    push: (chunk) => stream.push(chunk),
    finish: () => parsed(pass.finish(stream.end()), opts),
  };
}

/** `parse` of the bytes the chunks hold one after another. */
export function parseChunks(chunks: Iterable<Uint8Array>, opts: ParseOptions = {}): ParsedSession {
  const parser = sessionParser(opts);
  for (const chunk of chunks) parser.push(chunk);
  return parser.finish();
}

function parsed(r: LinePassResult, opts: ParseOptions): ParsedSession {
  return {
    file: opts.file,
    isSession: r.isSession,
    header: r.header,
    titleSlot: r.titleSlot,
    version: r.version,
    records: r.records,
    entries: r.entries,
    entryLines: r.entryLines,
    byId: r.byId,
    indexById: r.indexById,
    leafId: r.leafId,
    problems: r.problems,
    lineCount: r.lineCount,
  };
}

/** Parses a session and walks its leaf's branch: `{session, branch}`, the branch oldest first. */
export function read(input: string | Uint8Array, opts: ParseOptions = {}): { session: ParsedSession; branch: Entry[] } {
  const session = parse(input, opts);
  return { session, branch: branch(session) };
}

/**
 * The kept records' original line bytes, each followed by "\n" (a final line that had none keeps
 * none). For a clean file this is the file itself, byte for byte; skipped lines are left out.
 */
export function serialize(session: ParsedSession, originalBytes: Uint8Array): Uint8Array {
  let size = 0;
  const n = session.records.length;
  const newline = (r: SessionRecord, i: number) => (originalBytes[r.end] === 10 || i < n - 1 ? 1 : 0);
  session.records.forEach((r, i) => (size += r.end - r.start + newline(r, i)));
  const out = new Uint8Array(size);
  let at = 0;
  session.records.forEach((r, i) => {
    out.set(originalBytes.subarray(r.start, r.end), at);
    at += r.end - r.start;
    if (newline(r, i)) out[at++] = 10;
  });
  return out;
}
