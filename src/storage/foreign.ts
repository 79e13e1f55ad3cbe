// Other agents' files (Claude Code, Codex) in the store: their original bytes stay in sessions/,
// and everything that reads a session as pi reads their pi conversion (core/formats) instead. The
// conversion is kept in derived/ beside a key of the original it came from (its size and a hash of
// its first and last bytes: these files only grow by appending), so a reopen does not convert
// again, and a grown original is converted afresh. Like envelopes/, derived/ is only a cache.
import { type Converted, detectFormat, toPiSession } from '../core/formats/index.ts';
import { problem } from '../core/read/problems.ts';
import type { Problem } from '../core/index.ts';
import { concatBytes, once } from './chunks.ts';
import { isNotFound } from './errors.ts';
import { sessionPath } from './names.ts';
import { createScanner, type SessionScan } from './scan.ts';
import type { Disk } from './types.ts';

/** The directory of pi conversions. */
export const DERIVED_DIR = 'derived';
/** Bytes at each end of the original that its key hashes. */
const KEY_BYTES = 64 * 1024;
/** Bytes of a file's start that tell its format. */
export const HEAD_BYTES = 64 * 1024;

const baseName = (id: string) =>
  sessionPath(id)
    .split('/')
    .pop()!
    .replace(/\.jsonl$/, '');
/** Where the pi conversion of session `id` is kept. */
export const derivedPath = (id: string) => `${DERIVED_DIR}/${baseName(id)}.jsonl`;
const keyPath = (id: string) => `${DERIVED_DIR}/${baseName(id)}.key`;

/** A conversion as the store keeps it: the pi bytes and what the adapter found wrong (source lines). */
export interface Conversion {
  format: Converted['format'];
  bytes: Uint8Array;
  problems: Problem[];
}

/** Converts another agent's file; null for a pi file. An adapter that throws gives a conversion with no session in it and one problem. */
export function convert(bytes: Uint8Array, file?: string): Conversion | null {
  const format = detectFormat(bytes.subarray(0, HEAD_BYTES));
  if (format === 'pi') return null;
  try {
    const c = toPiSession(bytes, { file });
    if (!c) return null;
    return { format: c.format, bytes: new TextEncoder().encode(c.text), problems: c.problems };
  } catch (e) {
    const name = format === 'claude-code' ? 'Claude Code' : 'Codex';
    return { format, bytes: new Uint8Array(0), problems: [problem(1, 'no-header', `could not be read as a ${name} session: ${(e as Error).message}`)] };
  }
}

/** FNV-1a over bytes, from a seed. */
function fnv(bytes: Uint8Array, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
  return h;
}

/** The key of an original: its size and a hash of its first and last KEY_BYTES. */
export function keyOf(size: number, head: Uint8Array, tail: Uint8Array): string {
  const both = concatBytes([head, tail]);
  return `${size}:${fnv(both, 2166136261).toString(16)}${fnv(both, 0x9e3779b9).toString(16)}`;
}

/** The key of the original as it is on disk. */
async function keyOnDisk(disk: Disk, path: string): Promise<string | null> {
  const size = await disk.size(path);
  if (size === null) return null;
  const head = await disk.read(path, 0, Math.min(size, KEY_BYTES));
  const tail = await disk.read(path, Math.max(0, size - KEY_BYTES), size);
  return keyOf(size, head, tail);
}

/** The key of an original held in memory. */
export const keyOfBytes = (bytes: Uint8Array) => keyOf(bytes.length, bytes.subarray(0, KEY_BYTES), bytes.subarray(Math.max(0, bytes.length - KEY_BYTES)));

/** A scan of a file that decides by its first bytes whether it is pi (scanned as it streams) or another agent's (gathered, converted, and the conversion scanned). */
export function createAnyScanner(
  opts: { conversion?: Conversion | null; file?: string; onValue?: (value: Record<string, unknown>) => void; pi?: boolean } = {},
) {
  // `pi`: the caller read a pi session header at the file's start, which is all detection would look for.
  let pi: ReturnType<typeof createScanner> | null = opts.pi ? createScanner({ onValue: opts.onValue }) : null;
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let foreign = false;
  const decide = () => {
    const head = concatBytes(held).subarray(0, HEAD_BYTES);
    if (detectFormat(head) === 'pi') {
      pi = createScanner({ onValue: opts.onValue });
      for (const c of held) pi.push(c);
      held = [];
    } else foreign = true;
  };
  return {
    push(chunk: Uint8Array) {
      if (pi) return pi.push(chunk);
      // Copied: the caller may reuse its buffer.
      held.push(chunk.slice());
      heldBytes += chunk.length;
      if (!foreign && heldBytes >= HEAD_BYTES) decide();
    },
    finish(): SessionScan & { conversion?: Conversion; key?: string } {
      if (!pi && !foreign) decide();
      if (pi) return pi.finish();
      const original = concatBytes(held);
      held = [];
      const conversion = opts.conversion ?? convert(original, opts.file);
      if (!conversion) {
        const s = createScanner({ onValue: opts.onValue });
        s.push(original);
        return s.finish();
      }
      // What sees each line (the search index at import) sees the conversion's pi lines.
      return { ...scanConversion(conversion, opts.onValue), conversion, key: keyOfBytes(original) };
    },
  };
}

/** The scan of a conversion, as the index sees the session: problems are the adapter's (source lines) and then the conversion's own. */
export function scanConversion(conversion: Conversion, onValue?: (value: Record<string, unknown>) => void): SessionScan {
  // Claude Code and Codex store no prices: the conversion's cost 0 is "not recorded".
  const s = createScanner({ onValue, zeroCostUnrecorded: true });
  s.push(conversion.bytes);
  const scan = s.finish();
  const d = scan.digest;
  const problems = conversion.problems.length + d.problems;
  const firstProblem = conversion.problems.find((p) => p.severity === 'error') ?? conversion.problems[0] ?? d.firstProblem;
  d.usage.agent = conversion.format;
  return { ...scan, digest: { ...d, agent: conversion.format, problems, firstProblem } };
}

/** Keeps a conversion in derived/ under the original's key (a failure only costs a conversion later). */
export async function keepConversion(disk: Disk, id: string, key: string, conversion: Conversion): Promise<void> {
  try {
    await disk.writeNew(derivedPath(id), once(conversion.bytes));
    await disk.writeNew(keyPath(id), once(new TextEncoder().encode(JSON.stringify({ key, size: conversion.bytes.length }))));
  } catch (e) {
    if ((e as DOMException)?.name !== 'QuotaExceededError') throw e;
  }
}

/** Forgets a session's conversion (trash, replace). */
export async function dropConversion(disk: Disk, id: string): Promise<void> {
  await disk.remove(keyPath(id));
  await disk.remove(derivedPath(id));
}

/**
 * The pi conversion of stored session `id` (original at `path`) as a Blob, fresh against the
 * original: the kept one when its key still matches, else converted now and kept. Null for a pi file.
 */
export async function freshConversion(disk: Disk, id: string, path: string): Promise<Blob | null> {
  const key = await keyOnDisk(disk, path);
  if (key === null) return null;
  try {
    const kept = JSON.parse(new TextDecoder().decode(await disk.read(keyPath(id)))) as { key?: string; size?: number };
    if (kept.key === key && (await disk.size(derivedPath(id))) === kept.size) return await disk.blob(derivedPath(id));
  } catch (e) {
    if (!isNotFound(e) && !(e instanceof SyntaxError)) throw e;
  }
  const original = await disk.read(path);
  const conversion = convert(original, id);
  if (!conversion) return null;
  await keepConversion(disk, id, keyOfBytes(original), conversion);
  return new Blob([conversion.bytes as Uint8Array<ArrayBuffer>], { type: 'application/x-ndjson' });
}
