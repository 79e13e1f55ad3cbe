/// <reference path="./share-page-assets.d.ts" />
// The one-file HTML page of a session: the session's bytes in gzip-compressed chunks with
// its envelope index (./page-payload.ts; with a passphrase, that container encrypted in the age
// format) inside a page that reads it offline with no request.
import { Encrypter } from 'age-encryption';
import { assemblePage, type SharePageAssets } from './page-template.ts';
import { packSession } from './page-payload.ts';

/** Options of one page: its title, the branch it opens on, and a passphrase to encrypt it with. */
export interface HtmlPageOptions {
  title: string;
  leafId?: string;
  passphrase?: string;
  /** log2 of scrypt's N for the passphrase; age's default (18) unless given (tests of other things pass a low one). */
  workFactor?: number;
}

/** An age file (passphrase, scrypt) of bytes, as `age -p` writes it and `age -d` reads it. */
export async function encryptWithPassphrase(bytes: Uint8Array, passphrase: string, workFactor?: number): Promise<Uint8Array> {
  const encrypter = new Encrypter();
  encrypter.setPassphrase(passphrase);
  if (workFactor) encrypter.setScryptWorkFactor(workFactor);
  return encrypter.encrypt(bytes);
}

/**
 * The one-file page of (already cleaned) session bytes. `assets` defaults to the page built into
 * this app (src/share-page/ through vite.share-page.ts); tests and the bench pass their own build.
 */
export async function buildHtmlPage(jsonl: Uint8Array, options: HtmlPageOptions, assets?: SharePageAssets): Promise<Blob> {
  const built = assets ?? (await import('virtual:rho-share-page')).default;
  let payload = await packSession(jsonl);
  const encrypted = typeof options.passphrase === 'string' && options.passphrase !== '';
  if (encrypted) payload = await encryptWithPassphrase(payload, options.passphrase as string, options.workFactor);
  return assemblePage(built, payload, {
    title: options.title,
    encrypted,
    ...(options.leafId ? { leafId: options.leafId } : {}),
    bytes: jsonl.byteLength,
    format: 2,
  });
}
