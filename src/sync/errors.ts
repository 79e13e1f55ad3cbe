// The sync room's one error type: what went wrong, classified from the provider's real answer
// (re-exported by types.ts, the room's interface).

/** What went wrong, classified from the provider's real answer; each has its own fix. */
export type SyncErrorCode =
  /** The browser refused to read the answer: the provider sends no CORS rule for this origin. */
  | 'cors-blocked'
  /** The access key, secret, user or password is not accepted (S3 InvalidAccessKeyId / SignatureDoesNotMatch, HTTP 401). */
  | 'auth'
  /** The bucket (S3 NoSuchBucket) or the WebDAV folder (404/409 on the root) does not exist. */
  | 'no-such-bucket'
  /** The provider refused the signed request's time (RequestTimeTooSkewed): the device's clock is off. */
  | 'clock-skew'
  /** Credentials accepted but writing is not allowed (403 AccessDenied on PUT, read-only WebDAV). */
  | 'forbidden-write'
  /** No answer (offline, DNS, refused, dropped connection, timeout). Retried later. */
  | 'network'
  /** The object does not exist (normal for a get racing a consolidation: the engine lists again). */
  | 'not-found'
  /** The provider answered 5xx or something unexpected. Retried later. */
  | 'server'
  /** An object of the space does not open with this space's key, or does not match its name: refused, nothing applied. */
  | 'tampered'
  /** No space at this place yet (no `rs1/space` object), or it belongs to another key. */
  | 'no-space'
  /** A pairing link's code is wrong, or the link is damaged. */
  | 'bad-code'
  /** A local write was refused (a file changed under us, quota): retried next round. */
  | 'local';

/** The one error type of the sync room: a code, a message that names what and where, and its fix. */
export class SyncError extends Error {
  readonly code: SyncErrorCode;
  /** The HTTP status, when there was an answer. */
  readonly status?: number;
  /** The provider's own error code or first line of its answer (e.g. `SignatureDoesNotMatch`). */
  readonly provider?: string;
  /** The object or file it concerns, when one. */
  readonly object?: string;
  constructor(code: SyncErrorCode, message: string, extra: { status?: number; provider?: string; object?: string; cause?: unknown } = {}) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'SyncError';
    this.code = code;
    this.status = extra.status;
    this.provider = extra.provider;
    this.object = extra.object;
  }
  /** Whether trying again later may succeed by itself (network, server, a racing not-found, a local refusal). */
  get transient(): boolean {
    return this.code === 'network' || this.code === 'server' || this.code === 'not-found' || this.code === 'local';
  }
}
