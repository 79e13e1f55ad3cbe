// Other agents' session files (Claude Code, Codex CLI), read natively: each adapter is a pure
// function from the file's bytes to a pi v3 session (header + entries, deterministic ids derived
// from the source's), which the rest of the app reads, searches, counts and exports like any pi
// file. The original bytes stay the stored truth; this conversion is derived from them.
import { problem } from '../read/problems.ts';
import { claudeToPi, looksLikeClaude } from './claude/index.ts';
import { codexToPi, looksLikeCodex } from './codex/index.ts';
import type { Conversion, ConvertOptions, Converted, SourceFormat } from './types.ts';

export type { Conversion, ConvertOptions, Converted, SourceFormat } from './types.ts';

/** Bytes of a file's start that tell its format. */
export const HEAD_BYTES = 64 * 1024;

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
  const format = detectFormat(bytes.subarray(0, HEAD_BYTES));
  if (format === 'claude-code') return claudeToPi(bytes, options);
  if (format === 'codex') return codexToPi(bytes, options);
  return null;
}

/**
 * Another agent's file as pi bytes, for a file whose format is `format` (`detectFormat`); an
 * adapter that throws gives a conversion with no session in it and one problem.
 */
export function convertToPi(bytes: Uint8Array, format: Exclude<SourceFormat, 'pi'>, file?: string): Conversion {
  try {
    const c = format === 'claude-code' ? claudeToPi(bytes, { file }) : codexToPi(bytes, { file });
    return { format: c.format, bytes: new TextEncoder().encode(c.text), problems: c.problems };
  } catch (e) {
    const name = format === 'claude-code' ? 'Claude Code' : 'Codex';
    return { format, bytes: new Uint8Array(0), problems: [problem(1, 'no-header', `could not be read as a ${name} session: ${(e as Error).message}`)] };
  }
}
