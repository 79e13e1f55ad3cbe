import type { Problem, ProblemCode } from '../schema/types.ts';

// Severity is fixed per code: an error loses data or refuses the file, a warning keeps everything.
const SEVERITY: Record<ProblemCode, Problem['severity']> = {
  torn: 'error',
  'invalid-json': 'error',
  'not-an-object': 'error',
  'no-header': 'error',
  'header-not-first': 'error',
  'invalid-utf8': 'warning',
  'duplicate-id': 'warning',
  'missing-parent': 'warning',
  cycle: 'warning',
  'future-version': 'warning',
  'invalid-entry': 'warning',
  'title-slot': 'warning',
};

/** Builds a problem with the severity its code always has. */
export function problem(line: number, code: ProblemCode, message: string): Problem {
  return { line, code, message, severity: SEVERITY[code] };
}

/** Shortens a value for a message, so a 20 MB line never lands in a problem text. */
export function clip(text: string, max = 60): string {
  return text.length <= max ? text : text.slice(0, max) + '…';
}
