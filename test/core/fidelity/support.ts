/**
 * Shared helpers of the fidelity tests: the fixture list and an independent line splitter (so the
 * tests do not trust the core's own framing when checking it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every committed fixture file (`fixtures/{real,synthetic,omp,pi}/**.jsonl`), as repo-relative paths. */
export function fixtureFiles(): string[] {
  const out: string[] = [];
  for (const dir of ['real', 'synthetic', 'omp', 'pi']) {
    const abs = join(ROOT, 'fixtures', dir);
    for (const name of readdirSync(abs).sort()) if (name.endsWith('.jsonl')) out.push(relative(ROOT, join(abs, name)));
  }
  return out;
}

/** The bytes of a repo-relative file as a plain Uint8Array. */
export function readBytes(rel: string): Uint8Array {
  const b = readFileSync(join(ROOT, rel));
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** One physical line: 1-based number and byte range (end excludes the '\n'). */
export interface PhysicalLine {
  line: number;
  start: number;
  end: number;
  terminated: boolean;
}

/** Splits bytes on 0x0A only; the last line exists only when non-empty. */
export function physicalLines(bytes: Uint8Array): PhysicalLine[] {
  const out: PhysicalLine[] = [];
  let start = 0;
  let line = 1;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 10) {
      out.push({ line, start, end: i, terminated: true });
      line++;
      start = i + 1;
    }
  }
  if (start < bytes.length) out.push({ line, start, end: bytes.length, terminated: false });
  return out;
}

const decoder = new TextDecoder();

/** Whether a physical line is blank after dropping a trailing '\r' (both readers skip those). */
export function isBlankLine(bytes: Uint8Array, l: PhysicalLine): boolean {
  return decoder.decode(bytes.subarray(l.start, l.end)).trim() === '';
}

/** Byte-wise equality that reports the first difference instead of dumping megabytes. */
export function firstDifference(a: Uint8Array, b: Uint8Array): string | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return `byte ${i}: ${a[i]} vs ${b[i]}`;
  return a.length === b.length ? null : `length ${a.length} vs ${b.length}`;
}

/** Concatenation of byte ranges, each followed by '\n' unless it is an unterminated last line. */
export function joinLines(bytes: Uint8Array, lines: PhysicalLine[]): Uint8Array {
  let size = 0;
  for (const l of lines) size += l.end - l.start + (l.terminated ? 1 : 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const l of lines) {
    out.set(bytes.subarray(l.start, l.end), at);
    at += l.end - l.start;
    if (l.terminated) out[at++] = 10;
  }
  return out;
}
