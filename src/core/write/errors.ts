// Errors the core throws (only for caller mistakes while writing; bad input is reported, never thrown).

/** Why a write was refused. */
export type CoreErrorCode = 'append-v1' | 'not-a-session' | 'id-exhausted' | 'bad-entry';

/** A typed error with a code the UI can switch on. */
export class CoreError extends Error {
  readonly code: CoreErrorCode;
  constructor(code: CoreErrorCode, message: string) {
    super(message);
    this.name = 'CoreError';
    this.code = code;
  }
}
