// The shapes every adapter of another agent's format shares (index.ts chooses the adapter).
import type { Problem } from '../schema/types.ts';

/** Which agent wrote a file, told from its content (never its name). */
export type SourceFormat = 'pi' | 'claude-code' | 'codex';

/** A file converted to pi: the pi v3 JSONL text, and what went wrong, each with its source line (1-based). */
export interface Converted {
  format: Exclude<SourceFormat, 'pi'>;
  /** A pi v3 session file (header line, then entries), ready for the core's `parse`/`indexEnvelopes`. */
  text: string;
  problems: Problem[];
}

/** A conversion as bytes, as the library keeps and reads it: the pi bytes and what the adapter found wrong (source lines). */
export interface Conversion {
  format: Converted['format'];
  bytes: Uint8Array;
  problems: Problem[];
}

/** Options every adapter takes: the file name, for messages. */
export interface ConvertOptions {
  file?: string;
}
