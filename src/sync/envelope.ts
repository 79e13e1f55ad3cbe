// Sealing and opening objects: age-encrypted to the space's recipient, named by a MAC of their
// plaintext that only key holders can compute. Anything that does not open, or does not match its
// name, is refused as tampered or foreign.
import { Decrypter } from 'age-encryption';
import { concat, utf8 } from './bytes.ts';
import { mac } from './keys.ts';
import { gather, sealInThread, streamOf } from './seal.ts';
import { SyncError, type SpaceKeys } from './types.ts';

export const ROOT = 'rs1/';
export const SPACE_OBJECT = `${ROOT}space`;
const MAC_HEX = 32;

/** The name of a pack of `device` with sequence `seq` and this plaintext. */
export async function packName(keys: SpaceKeys, device: string, seq: number, plaintext: Uint8Array): Promise<string> {
  const s = String(seq).padStart(10, '0');
  const m = await mac(keys, utf8(`${device}/${s}/`), plaintext);
  return `${ROOT}${device}/${s}-${m.slice(0, MAC_HEX)}`;
}

/** Parses a pack's name: its device and seq, or null for anything else. */
export function parsePackName(name: string): { device: string; seq: number } | null {
  const m = /^rs1\/([0-9a-f]{12})\/(\d{10})-[0-9a-f]{32}$/.exec(name);
  return m ? { device: m[1], seq: Number(m[2]) } : null;
}

export function seal(keys: SpaceKeys, plaintext: Uint8Array): Promise<Uint8Array> {
  return sealInThread(keys.recipient, plaintext);
}

function refused(name: string, why: string, cause?: unknown): SyncError {
  return new SyncError('tampered', `${name}: ${why} (tampered, or from another space); nothing was applied`, { object: name, cause });
}

/** Decrypts an object; throws SyncError('tampered') when it does not open with the space's key. */
export async function unseal(keys: SpaceKeys, name: string, bytes: Uint8Array): Promise<Uint8Array> {
  const d = new Decrypter();
  d.addIdentity(keys.identity);
  try {
    const plain = await d.decrypt(streamOf(bytes));
    return await gather(plain, plain.size(bytes.length));
  } catch (error) {
    throw refused(name, 'does not open with this space’s key', error);
  }
}

// age's payload after its text header ("… \n--- <mac>\n"): a 16-byte nonce, then chunks of 64 KiB
// of plaintext, each with a 16-byte tag (the last one flagged as last).
const AGE_NONCE = 16;
const AGE_CHUNK = 64 * 1024 + 16;

/** Where age's text header ends in `bytes` (the payload's offset), or -1 when it has not ended yet. */
function ageHeaderEnd(bytes: Uint8Array): number {
  for (let i = bytes.indexOf(10); i >= 0 && i + 4 < bytes.length; i = bytes.indexOf(10, i + 1))
    if (bytes[i + 1] === 45 && bytes[i + 2] === 45 && bytes[i + 3] === 45 && bytes[i + 4] === 32) {
      const eol = bytes.indexOf(10, i + 5);
      return eol < 0 ? -1 : eol + 1;
    }
  return -1;
}

/**
 * The plaintext of the chunks of an object's first bytes that are whole and followed by more (each
 * authenticated by age: only a holder of the space's recipient can have written it). Empty when
 * not one whole chunk is there yet. The object's name is checked against its MAC only when it is
 * read whole (`openPack`).
 */
export async function openStart(keys: SpaceKeys, name: string, start: Uint8Array): Promise<Uint8Array> {
  const payload = ageHeaderEnd(start);
  const chunks = payload < 0 ? 0 : Math.floor((start.length - payload - AGE_NONCE - 1) / AGE_CHUNK);
  if (chunks <= 0) return new Uint8Array(0);
  const d = new Decrypter();
  d.addIdentity(keys.identity);
  // never closed: the bytes after the last whole chunk are never taken for the object's last chunk
  const input = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(start) });
  const parts: Uint8Array[] = [];
  try {
    const reader = (await d.decrypt(input)).getReader();
    while (parts.length < chunks) {
      const r = await reader.read();
      if (r.done) break;
      parts.push(r.value);
    }
    await reader.cancel();
  } catch (error) {
    throw refused(name, 'does not open with this space’s key', error);
  }
  return parts.length === 1 ? parts[0] : concat(parts);
}

/** Decrypts a pack and checks that its name is the MAC of its plaintext. */
export async function openPack(keys: SpaceKeys, name: string, bytes: Uint8Array): Promise<Uint8Array> {
  const parsed = parsePackName(name);
  if (!parsed) throw refused(name, 'is not a pack name');
  const plaintext = await unseal(keys, name, bytes);
  if ((await packName(keys, parsed.device, parsed.seq, plaintext)) !== name) throw refused(name, 'does not match its name');
  return plaintext;
}
