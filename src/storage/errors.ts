// Errors the store throws, with codes the worker passes to the page unchanged (protocol.ts ErrorCode).

/** Why a store call failed. */
export type StoreErrorCode = 'not-found' | 'conflict' | 'invalid-input' | 'storage-unavailable' | 'quota-exceeded' | 'unsupported';

/** A typed store error; the worker boundary turns it into {code, message, file?, line?}. */
export class StoreError extends Error {
  readonly code: StoreErrorCode;
  readonly file?: string;
  readonly line?: number;
  constructor(code: StoreErrorCode, message: string, file?: string, line?: number) {
    super(message);
    this.name = 'StoreError';
    this.code = code;
    this.file = file;
    this.line = line;
  }
}

/** Whether an error is the DOMException a platform throws for a missing file or directory. */
export function isNotFound(e: unknown): boolean {
  return e instanceof DOMException ? e.name === 'NotFoundError' : (e as { name?: string })?.name === 'NotFoundError';
}
