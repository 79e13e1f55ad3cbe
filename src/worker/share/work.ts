// What the share API does, loaded on the first share call: secretlint's rules, the age library and
// the Markdown renderer stay out of the worker's start (the reader's first screen waits for it).
import { strToU8, zipSync } from 'fflate';
import { parseChunks } from '../../core/index.ts';
import { shareTitle } from '../../core/share/md-header.ts';
import { renderMarkdown, type MarkdownOptions } from '../../core/share/markdown.ts';
import { concatBytes } from '../../storage/chunks.ts';
import type { SessionStore, SessionSummary } from '../../storage/types.ts';
import { exportName } from '../library/export.ts';
import type { CallContext } from '../protocol.ts';
import { decryptBlob, encryptBlob } from './age.ts';
import { cleanSession, type CleanStats } from './clean.ts';
import { htmlPage } from './html-adapter.ts';
import { reviewSession, type Review } from './review.ts';
import type { ShareRequest } from './request.ts';

/** The review of a stored session, for the pane. */
export function reviewStored(store: SessionStore, s: SessionSummary, params: Pick<ShareRequest, 'scope' | 'leafId'>, ctx: CallContext): Promise<Review> {
  return reviewSession(store, s, params, ctx.signal, (done) => ctx.progress({ done, total: s.size, label: 'review' }));
}

/** A shared copy: cleaned, in the chosen format, encrypted when a password is given. */
export async function makeShared(
  store: SessionStore,
  s: SessionSummary,
  params: ShareRequest,
  ctx: CallContext,
): Promise<{ name: string; blob: Blob; stats: CleanStats }> {
  const { parts, stats } = await cleanSession(store, s, params, ctx.signal, (done) => ctx.progress({ done, total: s.size, label: 'clean' }));
  const base = exportName(s).replace(/\.jsonl$/, params.scope === 'branch' ? '.branch' : '');
  const passphrase = params.passphrase || undefined;
  let made: { name: string; blob: Blob; encrypted?: boolean };
  if (params.format === 'jsonl') made = { name: `${base}.shared.jsonl`, blob: new Blob(parts as BlobPart[], { type: 'application/x-ndjson' }) };
  else if (params.format === 'markdown') made = markdownFile(parts, base, params);
  else {
    const bytes = concatBytes(parts);
    const inPage = passphrase && !params.ageFile ? passphrase : undefined;
    const title = shareTitle(parseChunks(parts, { validate: false }));
    const blob = await htmlPage(bytes, { title, ...(params.leafId ? { leafId: params.leafId } : {}), ...(inPage ? { passphrase: inPage } : {}) });
    made = { name: `${base}.html`, blob: new Blob([blob], { type: 'text/html' }), encrypted: Boolean(inPage) };
  }
  if (passphrase && !made.encrypted) made = { name: `${made.name}.age`, blob: await encryptBlob(made.blob, passphrase, params.workFactor) };
  return { name: made.name, blob: made.blob, stats };
}

/** Decrypts age files with one password (all of them before anything is stored). */
export async function decryptAll(
  files: Array<{ path: string; file: Blob }>,
  passphrase: string,
  signal: AbortSignal,
): Promise<Array<{ path: string; file: Blob }>> {
  const plain = [];
  for (const f of files) {
    signal.throwIfAborted();
    plain.push({ path: f.path.replace(/\.age$/i, ''), file: await decryptBlob(f.file, passphrase, f.path) });
  }
  return plain;
}

function markdownFile(parts: Uint8Array[], base: string, params: ShareRequest): { name: string; blob: Blob } {
  // Parsed from the cleaned parts as they are: the file is never joined into one array.
  const session = parseChunks(parts, { validate: false });
  const options: MarkdownOptions = {
    mode: params.markdown?.mode ?? 'full',
    thinking: params.markdown?.thinking ?? false,
    images: params.markdown?.images ?? 'omit',
    scopeNote: params.scope === 'branch' ? 'the branch on screen' : 'the whole session (every branch, in file order)',
  };
  const { markdown, images } = renderMarkdown(session, options);
  if (!images.length) return { name: `${base}.md`, blob: new Blob([markdown], { type: 'text/markdown' }) };
  const files: Record<string, Uint8Array> = { [`${base}.md`]: strToU8(markdown) };
  for (const img of images) files[img.name] = fromBase64(img.base64);
  return { name: `${base}.zip`, blob: new Blob([zipSync(files, { level: 6 }) as BlobPart], { type: 'application/zip' }) };
}

function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
