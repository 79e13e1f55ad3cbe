// Only encrypted pages carry this (and the age library, a third of the worker's size): see encrypted.ts.
import { Decrypter } from 'age-encryption';
import { ApiFailure } from '../../worker/protocol.ts';

/** The gzip inside an age file, or a clear failure when the passphrase is wrong or the file is damaged. */
export async function decryptPayload(bytes: Uint8Array, passphrase: string): Promise<Uint8Array> {
  const decrypter = new Decrypter();
  decrypter.addPassphrase(passphrase);
  try {
    return await decrypter.decrypt(bytes);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    // age says no identity matched when the passphrase does not unwrap the file key.
    if (/identity|incorrect|passphrase/i.test(why)) throw new ApiFailure('invalid-input', 'Wrong password: this page does not open with it.');
    throw new ApiFailure('invalid-input', `This page's session could not be decrypted (${why}).`);
  }
}
