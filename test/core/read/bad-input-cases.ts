// The bad-input manifest (fixtures/bad/cases.json) and its files, for the Node tests.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bytesOf, type BigCase } from './bad-input-big.ts';

/** The repository root. */
export const root = resolve(import.meta.dirname, '../../..');

/** What reading a case with the core must give. */
export interface CoreOutcome {
  isSession: boolean;
  entries: number;
  branch: number;
  leafId: string | null;
  problems: Array<[string, number]>;
}
/** What importing a case must give (one file, or the items of an archive). */
export interface ImportOutcome {
  outcome?: string;
  line?: number;
  reason?: string;
  problems?: number;
  title?: string;
  items?: Array<{ name?: string; outcome: string; line?: number; reason?: string }>;
}
/** One case of the manifest. */
export interface BadCase {
  file: string;
  case: string;
  core: CoreOutcome | null;
  import: ImportOutcome;
  note?: string;
}

/** Every committed case, in manifest order. */
export const cases: BadCase[] = JSON.parse(readFileSync(resolve(root, 'fixtures/bad/cases.json'), 'utf8')).cases;

/** A committed case's bytes. */
export function bytesOfCase(file: string): Uint8Array {
  return new Uint8Array(readFileSync(resolve(root, 'fixtures/bad', file)));
}

/** Writes a generated case into fixtures/generated/ (git-ignored) once, and reads it back. */
export function generatedFile(c: BigCase): { path: string; bytes: Uint8Array } {
  const dir = resolve(root, 'fixtures/generated');
  mkdirSync(dir, { recursive: true });
  const path = resolve(dir, `bad-${c.name}`);
  if (!existsSync(path) || statSync(path).size !== c.size) writeFileSync(path, bytesOf(c));
  return { path, bytes: new Uint8Array(readFileSync(path)) };
}
