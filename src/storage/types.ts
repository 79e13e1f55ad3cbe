/**
 * The store the worker works on: the OPFS store in the browser, the in-memory one in Node tests.
 * (The storage engineer extends this interface; the reader half of the worker API needs only these.)
 */
export interface SessionStore {
  /** The original bytes of a stored session. Throws ApiFailure('not-found') when absent. */
  readBytes(id: string): Promise<Uint8Array>;
  /** An omp image blob by its sha256 (hex), or null when it was not imported. */
  readBlob(sha256: string): Promise<Blob | null>;
}
