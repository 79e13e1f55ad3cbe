// Classifying what a provider answered (docs/sync.md lists each fix): the status and the S3 error
// code tell auth, missing bucket, clock skew and write permission apart; a fetch that throws is
// told apart between CORS (the server answers a no-cors request) and the network (it does not).
import { SyncError, type SpaceKind, type SyncErrorCode } from '../types.ts';

/** The CORS rule to paste for a provider, for an app at `origin`. */
export function corsRule(kind: SpaceKind, origin: string): string {
  if (kind === 's3')
    return JSON.stringify(
      [{ AllowedOrigins: [origin], AllowedMethods: ['GET', 'PUT', 'DELETE', 'HEAD'], AllowedHeaders: ['*'], ExposeHeaders: ['ETag'], MaxAgeSeconds: 3600 }],
      null,
      2,
    );
  if (kind === 'webdav')
    return [
      `Access-Control-Allow-Origin: ${origin}`,
      'Access-Control-Allow-Methods: GET, PUT, DELETE, PROPFIND, MKCOL, OPTIONS',
      'Access-Control-Allow-Headers: Authorization, Content-Type, Depth',
      'Access-Control-Expose-Headers: ETag',
    ].join('\n');
  return '';
}

/** The provider's error code in an S3 XML answer (`<Code>…</Code>`), or ''. */
export function s3Code(body: string): string {
  return /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? '';
}

const FIX: Record<SyncErrorCode, string> = {
  'cors-blocked': 'the provider does not allow this app’s origin: add the CORS rule shown in the space settings',
  auth: 'the key or password is not accepted: check the access key and secret (or user and app password)',
  'no-such-bucket': 'no such bucket or folder: check its name and the endpoint (and the region)',
  'clock-skew': 'the provider refused the request’s time: set this device’s clock automatically',
  'forbidden-write': 'the key may read but not write: give it write (and delete) permission on the bucket or folder',
  network: 'no answer: check the connection (sync resumes by itself)',
  'not-found': 'the object is not there',
  server: 'the provider answered with an error (sync tries again)',
  tampered: '',
  'no-space': '',
  'bad-code': '',
  local: '',
};

/** A SyncError for an HTTP answer: `what` says the request ("PUT rs1/…"). */
export function httpError(code: SyncErrorCode, where: string, what: string, status: number, provider: string, object?: string): SyncError {
  const answer = `${status}${provider ? ` ${provider}` : ''}`;
  return new SyncError(code, `${where}: ${what} answered ${answer} — ${FIX[code]}`, { status, provider, object });
}

/** Classifies an S3 answer that is not ok. */
export function classifyS3(status: number, provider: string, write: boolean): SyncErrorCode {
  if (provider === 'RequestTimeTooSkewed' || provider === 'RequestExpired') return 'clock-skew';
  if (provider === 'NoSuchBucket') return 'no-such-bucket';
  if (provider === 'NoSuchKey' || (status === 404 && !provider)) return 'not-found';
  if (provider === 'InvalidAccessKeyId' || provider === 'SignatureDoesNotMatch' || provider === 'InvalidToken' || status === 401) return 'auth';
  if (status === 403) return write ? 'forbidden-write' : 'auth';
  if (status === 404) return 'not-found';
  return 'server';
}

/**
 * Classifies a fetch that threw: aborted → rethrown; in a browser, a `no-cors` request to the same
 * URL that gets an (opaque) answer means the server is there and CORS blocked us.
 */
export async function classifyFetchError(error: unknown, url: string, where: string, what: string): Promise<SyncError> {
  if (error instanceof DOMException && error.name === 'AbortError') throw error;
  const inBrowser =
    typeof (globalThis as { document?: unknown }).document !== 'undefined' ||
    typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined';
  if (inBrowser) {
    try {
      await fetch(url, { mode: 'no-cors', method: 'GET', cache: 'no-store' });
      return new SyncError('cors-blocked', `${where}: ${what} was blocked by the browser (CORS) — ${FIX['cors-blocked']}`, { cause: error });
    } catch {
      /* unreachable: the network */
    }
  }
  const detail = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
  return new SyncError('network', `${where}: ${what} got no answer (${detail}) — ${FIX.network}`, { cause: error });
}

/** Reads a whole answer, refusing one shorter than its Content-Length (a dropped connection). */
export async function bodyOf(res: Response, where: string, what: string): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await res.arrayBuffer());
  } catch (error) {
    throw new SyncError('network', `${where}: ${what} was cut off (${(error as Error).message}) — ${FIX.network}`, { cause: error });
  }
  const expected = res.headers.get('content-length');
  if (expected !== null && !res.headers.get('content-encoding') && Number(expected) !== bytes.length)
    throw new SyncError('network', `${where}: ${what} was cut off (${bytes.length} of ${expected} bytes) — ${FIX.network}`);
  return bytes;
}
