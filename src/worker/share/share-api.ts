// The share half of the worker API: review a session, make a shared copy (cleaned JSONL,
// Markdown, the one-file HTML page; each optionally in age), and import age-encrypted files.
import { strToU8, zipSync } from 'fflate';
import { parse } from '../../core/index.ts';
import type { Choice } from '../../core/share/hits.ts';
import { shareTitle } from '../../core/share/md-header.ts';
import { renderMarkdown, type MarkdownOptions } from '../../core/share/markdown.ts';
import type { StripOptions } from '../../core/share/strip.ts';
import { concatBytes } from '../../storage/chunks.ts';
import type { SessionSummary } from '../../storage/types.ts';
import type { WorkerEnv } from '../env.ts';
import { exportName } from '../export.ts';
import { importAll, type ImportReport } from '../import.ts';
import { ApiFailure, type CallContext } from '../protocol.ts';
import { decryptBlob, encryptBlob } from './age.ts';
import { cleanSession, type CleanStats } from './clean.ts';
import { hasHtmlPage, htmlPage } from './html-adapter.ts';
import type { Scope } from './lines.ts';
import { reviewSession, type Review } from './review.ts';

export type { Review } from './review.ts';
export type { Hit } from '../../core/share/hits.ts';
export type { StripOptions } from '../../core/share/strip.ts';
export type { CleanStats } from './clean.ts';

/** The formats a shared copy can take. */
export type ShareFormat = 'jsonl' | 'markdown' | 'html';

/** Everything the share dialog decides. */
export interface ShareRequest {
  id: string;
  format: ShareFormat;
  scope: Scope;
  leafId?: string;
  choice?: Choice;
  strip?: StripOptions;
  markdown?: Omit<MarkdownOptions, 'scopeNote'>;
  /** Encrypts the copy: an `.age` file, or for HTML (unless `ageFile`) a page that asks for it. */
  passphrase?: string;
  ageFile?: boolean;
}

const noContext: CallContext = { signal: new AbortController().signal, progress: () => undefined };

/** The share half of the worker API. */
export function createShareApi(env: WorkerEnv) {
  const { store } = env;
  const mustGet = async (id: string): Promise<SessionSummary> => {
    const s = await store.get(id);
    if (!s) throw new ApiFailure('not-found', `No session ${id} is stored.`);
    return s;
  };

  return {
    /** What looks private in a session or one branch, for the review pane. */
    async reviewShare(params: { id: string; scope: Scope; leafId?: string }, ctx: CallContext = noContext): Promise<Review> {
      const s = await mustGet(params.id);
      return reviewSession(store, s, params, ctx.signal, (done) => ctx.progress({ done, total: s.size, label: 'review' }));
    },

    /** The formats this build can make (the HTML page comes from its own module). */
    async shareFormats(_params: Record<string, never> = {}, _ctx?: CallContext): Promise<{ formats: ShareFormat[] }> {
      return { formats: hasHtmlPage() ? ['jsonl', 'markdown', 'html'] : ['jsonl', 'markdown'] };
    },

    /** A shared copy: cleaned, in the chosen format, encrypted when a password is given. The stored session is not touched. */
    async exportShared(params: ShareRequest, ctx: CallContext = noContext): Promise<{ name: string; blob: Blob; stats: CleanStats }> {
      const s = await mustGet(params.id);
      const { parts, stats } = await cleanSession(store, s, params, ctx.signal, (done) => ctx.progress({ done, total: s.size, label: 'clean' }));
      const base = exportName(s).replace(/\.jsonl$/, params.scope === 'branch' ? '.branch' : '');
      const passphrase = params.passphrase || undefined;
      let made: { name: string; blob: Blob; encrypted?: boolean };
      if (params.format === 'jsonl') made = { name: `${base}.shared.jsonl`, blob: new Blob(parts as BlobPart[], { type: 'application/x-ndjson' }) };
      else if (params.format === 'markdown') made = markdownFile(concatBytes(parts), base, params);
      else {
        const bytes = concatBytes(parts);
        const inPage = passphrase && !params.ageFile ? passphrase : undefined;
        const title = shareTitle(parse(bytes, { validate: false }));
        const blob = await htmlPage(bytes, { title, ...(params.leafId ? { leafId: params.leafId } : {}), ...(inPage ? { passphrase: inPage } : {}) });
        made = { name: `${base}.html`, blob: new Blob([blob], { type: 'text/html' }), encrypted: Boolean(inPage) };
      }
      if (passphrase && !made.encrypted) made = { name: `${made.name}.age`, blob: await encryptBlob(made.blob, passphrase) };
      return { name: made.name, blob: made.blob, stats };
    },

    /** Imports age files with their password: all are decrypted first, so a wrong password stores nothing. */
    async importEncrypted(params: { files: Array<{ path: string; file: Blob }>; passphrase: string }, ctx: CallContext = noContext): Promise<ImportReport> {
      const plain = [];
      for (const f of params.files) {
        ctx.signal.throwIfAborted();
        plain.push({ path: f.path.replace(/\.age$/i, ''), file: await decryptBlob(f.file, params.passphrase, f.path) });
      }
      try {
        return await importAll(plain, { store, signal: ctx.signal });
      } finally {
        await store.flush().catch(() => undefined);
      }
    },
  };
}

function markdownFile(bytes: Uint8Array, base: string, params: ShareRequest): { name: string; blob: Blob } {
  const session = parse(bytes, { validate: false });
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
