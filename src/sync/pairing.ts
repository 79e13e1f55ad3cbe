// Pairing links (docs/sync-format.md): `<app>#pair=e.<age file, passphrase = the code>` or, from the
// command line only, `#pair=p.<plain JSON>`. The fragment never reaches a server.
import { Decrypter, Encrypter } from 'age-encryption';
import { base64url, fromBase64url, fromUtf8, utf8 } from './bytes.ts';
import { SyncError, type PairingPayload, type SpaceSettings } from './types.ts';

/** scrypt's work factor for links: 2^15 (about a second on a phone); the 50-bit code does the rest. */
const SCRYPT_LOG_N = 15;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A new code: 10 Crockford base32 letters (50 bits), shown as `XXXXX-XXXXX`. */
export function newCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  let code = '';
  for (const b of bytes) code += CROCKFORD[b & 31];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The code as typed (lower case, spaces, O for 0, I or L for 1) in its one form. */
export function normalizeCode(typed: string): string {
  const c = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return c.length === 10 ? `${c.slice(0, 5)}-${c.slice(5)}` : c;
}

/** The link for a payload: encrypted with `code`, or plain when code is null. */
export async function pairingLink(app: string, payload: PairingPayload, code: string | null): Promise<string> {
  const json = utf8(JSON.stringify(payload));
  const base = app.split('#')[0];
  if (code === null) return `${base}#pair=p.${base64url(json)}`;
  const e = new Encrypter();
  e.setPassphrase(normalizeCode(code));
  e.setScryptWorkFactor(SCRYPT_LOG_N);
  return `${base}#pair=e.${base64url(await e.encrypt(json))}`;
}

/** Whether a link (or a bare fragment) needs a code to open. */
export function linkNeedsCode(link: string): boolean {
  return fragmentOf(link).startsWith('e.');
}

function fragmentOf(link: string): string {
  const m = /#pair=([A-Za-z0-9._-]+)$/.exec(link.trim()) ?? /^pair=([A-Za-z0-9._-]+)$/.exec(link.trim());
  if (!m) throw new SyncError('bad-code', 'This is not a pairing link (it has no #pair=… part).');
  return m[1];
}

function checkSettings(s: SpaceSettings): boolean {
  if (!s || typeof s !== 'object') return false;
  if (s.kind === 's3') return [s.endpoint, s.region, s.bucket, s.prefix, s.accessKeyId, s.secretAccessKey].every((x) => typeof x === 'string');
  if (s.kind === 'webdav') return [s.url, s.username, s.password].every((x) => typeof x === 'string');
  return s.kind === 'folder' && typeof s.name === 'string';
}

/** Opens a pairing link; SyncError('bad-code') when the code is wrong or the link damaged. */
export async function openPairingLink(link: string, code?: string): Promise<PairingPayload> {
  const frag = fragmentOf(link);
  let json: Uint8Array;
  if (frag.startsWith('p.')) json = fromBase64url(frag.slice(2));
  else if (frag.startsWith('e.')) {
    if (!code) throw new SyncError('bad-code', 'This link is locked with a code: type the code shown beside it.');
    const d = new Decrypter();
    d.addPassphrase(normalizeCode(code));
    try {
      json = await d.decrypt(fromBase64url(frag.slice(2)));
    } catch (error) {
      throw new SyncError('bad-code', 'This code does not open the link: check the code shown beside it (or the link was cut short).', { cause: error });
    }
  } else throw new SyncError('bad-code', 'This pairing link is damaged (unknown kind).');
  let payload: PairingPayload;
  try {
    payload = JSON.parse(fromUtf8(json)) as PairingPayload;
  } catch (error) {
    throw new SyncError('bad-code', 'This pairing link is damaged (its content is not readable).', { cause: error });
  }
  if (payload?.v !== 1 || typeof payload.identity !== 'string' || !checkSettings(payload.space))
    throw new SyncError('bad-code', 'This pairing link is damaged or from a newer version (missing settings).');
  return payload;
}
