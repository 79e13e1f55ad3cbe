// Other agents' session files (Claude Code, Codex CLI), read natively: each adapter is a pure
// function from the file's bytes to a pi v3 session (header + entries, deterministic ids derived
// from the source's), which the rest of the app reads, searches, counts and exports like any pi
// file. The original bytes stay the stored truth; this conversion is derived from them.
import type { Problem } from '../schema/types.ts';
import { claudeToPi, looksLikeClaude } from './claude/index.ts';
import { codexToPi, looksLikeCodex } from './codex/index.ts';

/** Which agent wrote a file, told from its content (never its name). */
export type SourceFormat = 'pi' | 'claude-code' | 'codex';

/** A file converted to pi: the pi v3 JSONL text, and what went wrong, each with its source line (1-based). */
export interface Converted {
  format: Exclude<SourceFormat, 'pi'>;
  /** A pi v3 session file (header line, then entries), ready for the core's `parse`/`indexEnvelopes`. */
  text: string;
  problems: Problem[];
}

/** Options every adapter takes: the file name, for messages. */
export interface ConvertOptions {
  file?: string;
}

/** The first complete lines of `head` (bytes from the file's start), parsed where they are JSON objects. */
function firstRecords(head: Uint8Array, max = 8): Record<string, unknown>[] {
  const text = new TextDecoder().decode(head);
  const out: Record<string, unknown>[] = [];
  for (const line of text.split('\n').slice(0, max)) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line);
      if (v && typeof v === 'object' && !Array.isArray(v)) out.push(v as Record<string, unknown>);
    } catch {
      // a torn or partial line in the head: decided by the other lines
    }
  }
  return out;
}

/** The format of a file from its first bytes (64 KiB is plenty): pi (or not a session at all) unless an adapter claims it. */
export function detectFormat(head: Uint8Array): SourceFormat {
  const records = firstRecords(head);
  if (records.some((r) => r.type === 'session')) return 'pi';
  if (looksLikeCodex(records)) return 'codex';
  if (looksLikeClaude(records, head)) return 'claude-code';
  return 'pi';
}

/** Converts a Claude Code or Codex file to a pi v3 session; null for a pi file (or anything no adapter claims). */
export function toPiSession(bytes: Uint8Array, options: ConvertOptions = {}): Converted | null {
  const format = detectFormat(bytes.subarray(0, 65536));
  if (format === 'claude-code') return claudeToPi(bytes, options);
  if (format === 'codex') return codexToPi(bytes, options);
  return null;
}
