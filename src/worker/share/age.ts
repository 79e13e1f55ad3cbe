// Password-protected copies in the age format (age-encryption.org/v1, scrypt passphrase stanza), so
// the standard `age -d` opens them too. Pure JavaScript (noble ciphers and hashes): no WebAssembly.
import { Decrypter, Encrypter } from 'age-encryption';
import { ApiFailure } from '../protocol.ts';
import { AGE_MAGIC_LENGTH, isAge } from './age-magic.ts';

export { isAge } from './age-magic.ts';

/** A Blob encrypted with a passphrase, streamed (the file is never whole in memory twice). */
export async function encryptBlob(blob: Blob, passphrase: string, workFactor?: number): Promise<Blob> {
  if (!passphrase) throw new ApiFailure('invalid-input', 'A password cannot be empty.');
  const e = new Encrypter();
  e.setPassphrase(passphrase);
  if (workFactor) e.setScryptWorkFactor(workFactor);
  const stream = await e.encrypt(blob.stream() as ReadableStream<Uint8Array>);
  return new Blob([await new Response(stream).arrayBuffer()], { type: 'application/octet-stream' });
}

/** The plain bytes of an age file; a wrong password or a damaged file is an invalid-input error naming the file. */
export async function decryptBlob(blob: Blob, passphrase: string, name: string): Promise<Blob> {
  const head = new Uint8Array(await blob.slice(0, AGE_MAGIC_LENGTH).arrayBuffer());
  if (!isAge(head)) throw new ApiFailure('invalid-input', `${name} is not an age file.`, name);
  const d = new Decrypter();
  d.addPassphrase(passphrase);
  try {
    const bytes = await d.decrypt(new Uint8Array(await blob.arrayBuffer()), 'uint8array');
    return new Blob([bytes as BlobPart]);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/passphrase|identity|recipient|scrypt|mac|header/i.test(message))
      throw new ApiFailure('invalid-input', `Wrong password for ${name} (or it was not encrypted with a password).`, name);
    throw new ApiFailure('invalid-input', `${name} could not be decrypted: ${message}`, name);
  }
}
