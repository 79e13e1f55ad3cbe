// A file parsed whole as it is read, a chunk at a time (core `sessionParser`): a session opened
// whole in the worker needs its parsed values, not its bytes besides them.
import { type ParsedSession, type ParseOptions, sessionParser } from '../../core/index.ts';
import { blobChunks } from '../../storage/chunks.ts';

/** Bytes read at a time (two are held: the one parsed and the next one being read). */
export const PARSE_CHUNK = 1 << 20;

/** `parse` of a Blob's bytes, read `PARSE_CHUNK` at a time. */
export async function parseBlob(blob: Blob, opts: ParseOptions = {}, signal?: AbortSignal): Promise<ParsedSession> {
  const parser = sessionParser(opts);
  for await (const chunk of blobChunks(blob, 0, PARSE_CHUNK, signal)) parser.push(chunk);
  return parser.finish();
}
