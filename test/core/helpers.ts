// Short builders for test files: one JSON object per line, like the tools write them.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Entry } from '../../src/core/index.ts';

export const HEADER = { type: 'session', version: 3, id: '01900000-0000-7000-8000-000000000000', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/p' };

/** A JSONL file from objects (or raw strings, written as they are), each line ending in "\n". */
export function jsonl(...lines: (object | string)[]): string {
  return lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)) + '\n').join('');
}

/** A v3 entry with the given envelope. */
export function e(id: string, parentId: string | null, type = 'custom', extra: Record<string, unknown> = {}): Entry {
  const base: Entry = { type, id, parentId, timestamp: '2026-01-01T00:00:00.000Z' };
  if (type === 'custom') base.customType = 'x';
  return { ...base, ...extra };
}

/** A `message` entry around a message. */
export function m(id: string, parentId: string | null, message: Record<string, unknown>): Entry {
  return { type: 'message', id, parentId, timestamp: '2026-01-01T00:00:00.000Z', message };
}

/** Bytes of a string. */
export const bytes = (s: string) => new TextEncoder().encode(s);

/** Problem codes with their lines, for compact assertions. */
export const codes = (problems: { line: number; code: string }[]) => problems.map((p) => `${p.line}:${p.code}`);

/** Every committed .jsonl fixture under fixtures/ (not the git-ignored generated ones). */
export function fixtureFiles(dir = new URL('../../fixtures/', import.meta.url).pathname): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' || name === 'other-agents' ? [] : fixtureFiles(path);
    return name.endsWith('.jsonl') ? [path] : [];
  });
}
