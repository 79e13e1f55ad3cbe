/**
 * The wire protocol between the page (client.ts) and the worker (main.ts). Plain data only.
 * Long calls report progress and can be aborted; errors cross as {code, message, file?, line?}.
 */

/** The small set of error codes that cross the boundary. */
export type ErrorCode =
  | 'not-a-session'
  | 'invalid-input'
  | 'not-found'
  | 'conflict'
  | 'quota-exceeded'
  | 'storage-unavailable'
  | 'aborted'
  | 'unsupported'
  | 'provider'
  | 'internal';

const ERROR_CODES = new Set<ErrorCode>([
  'not-a-session',
  'invalid-input',
  'not-found',
  'conflict',
  'quota-exceeded',
  'storage-unavailable',
  'aborted',
  'unsupported',
  'provider',
  'internal',
]);

/** An error as it crosses the boundary. */
export interface ApiError {
  code: ErrorCode;
  message: string;
  file?: string;
  line?: number;
}

/** Progress of a long call: done out of total (bytes or items), with an optional label. */
export interface Progress {
  done: number;
  total: number;
  label?: string;
  /** A piece of a model's reply as it streams (the host room's send). */
  stream?: { kind: 'text' | 'thinking'; delta: string; cost: number };
}

/** What every API function receives after its params: cancellation and progress. */
export interface CallContext {
  signal: AbortSignal;
  progress: (p: Progress) => void;
}

/** Page → worker. */
export type Request = { kind: 'call'; id: number; method: string; params: unknown } | { kind: 'abort'; id: number };

/** Worker → page. */
export type Response =
  | { kind: 'result'; id: number; value: unknown }
  | { kind: 'error'; id: number; error: ApiError }
  | { kind: 'progress'; id: number; progress: Progress };

/** A thrown error with a code, turned into ApiError at the boundary. */
export class ApiFailure extends Error implements ApiError {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly file?: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

/** Turns anything thrown inside the worker into a plain ApiError. */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiFailure) return { code: e.code, message: e.message, file: e.file, line: e.line };
  // Typed errors from storage and the core carry a code of the same set (e.g. StoreError 'not-found').
  if (e instanceof Error && ERROR_CODES.has((e as { code?: unknown }).code as ErrorCode)) {
    const { code, file, line } = e as Error & ApiError;
    return { code, message: e.message, file, line };
  }
  if (e instanceof DOMException && e.name === 'AbortError') return { code: 'aborted', message: 'Cancelled.' };
  if (e instanceof DOMException && e.name === 'QuotaExceededError') return { code: 'quota-exceeded', message: 'The device has no room left for this.' };
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'internal', message };
}
