// The space's keys: an age X25519 identity, its recipient, and the name key derived from it
// (HKDF-SHA-256, info "rho-sessions sync v1 names") that names and authenticates every object.
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { concat, hex, utf8 } from './bytes.ts';
import { SyncError, type SpaceKeys } from './types.ts';

const NAME_INFO = 'rho-sessions sync v1 names';

/** A new space identity (`AGE-SECRET-KEY-1…`). */
export function newIdentity(): Promise<string> {
  return generateX25519Identity();
}

/** Derives the recipient and the name key from an identity; refuses anything that is not one. */
export async function spaceKeys(identity: string): Promise<SpaceKeys> {
  if (!/^AGE-SECRET-KEY-1[0-9A-Z]+$/.test(identity)) throw new SyncError('bad-code', 'The space key is not an age identity (AGE-SECRET-KEY-1…).');
  const recipient = await identityToRecipient(identity);
  const ikm = await crypto.subtle.importKey('raw', utf8(identity), 'HKDF', false, ['deriveKey']);
  const nameKey = await crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8(NAME_INFO) },
    ikm,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign'],
  );
  return { identity, recipient, nameKey };
}

/** HMAC-SHA-256 of the parts, in hex. */
export async function mac(keys: SpaceKeys, ...parts: Uint8Array[]): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.sign('HMAC', keys.nameKey, concat(parts) as Uint8Array<ArrayBuffer>)));
}
