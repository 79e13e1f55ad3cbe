// The share half of the worker API: review a session, make a shared copy (cleaned JSONL,
// Markdown, the one-file HTML page; each optionally in age), and import age-encrypted files.
// The work itself (secretlint, age, Markdown) loads with the first call: ./work.ts.
import { piView } from '../../storage/pi-view.ts';
import type { SessionSummary } from '../../storage/types.ts';
import type { WorkerEnv } from '../env.ts';
import { importAll, type ImportReport } from '../import/api.ts';
import { ApiFailure, type CallContext } from '../protocol.ts';
import type { CleanStats } from './clean.ts';
import { hasHtmlPage } from './html-adapter.ts';
import type { Scope } from './lines.ts';
import type { ShareFormat, ShareRequest } from './request.ts';
import type { Review } from './review.ts';

const work = () => import('./work.ts');

export type { Review } from './review.ts';
export type { Hit } from '../../core/share/hits.ts';
export type { StripOptions } from '../../core/share/strip.ts';
export type { CleanStats } from './clean.ts';
export type { ShareFormat, ShareRequest } from './request.ts';

const noContext: CallContext = { signal: new AbortController().signal, progress: () => undefined };

/** The share half of the worker API. */
export function createShareApi(env: WorkerEnv) {
  const { store } = env;
  // Shares read sessions as pi (a Claude Code or Codex file is shared as its pi conversion).
  const pi = piView(store);
  const mustGet = async (id: string): Promise<SessionSummary> => {
    const s = await pi.get(id);
    if (!s) throw new ApiFailure('not-found', `No session ${id} is stored.`);
    return s;
  };

  return {
    /** What looks private in a session or one branch, for the review pane. */
    async reviewShare(params: { id: string; scope: Scope; leafId?: string }, ctx: CallContext = noContext): Promise<Review> {
      const s = await mustGet(params.id);
      const { reviewStored } = await work();
      return reviewStored(pi, s, params, ctx);
    },

    /** The formats this build can make (the HTML page comes from its own module). */
    async shareFormats(_params: Record<string, never> = {}, _ctx?: CallContext): Promise<{ formats: ShareFormat[] }> {
      return { formats: hasHtmlPage() ? ['jsonl', 'markdown', 'html'] : ['jsonl', 'markdown'] };
    },

    /** A shared copy: cleaned, in the chosen format, encrypted when a password is given. The stored session is not touched. */
    async exportShared(params: ShareRequest, ctx: CallContext = noContext): Promise<{ name: string; blob: Blob; stats: CleanStats }> {
      const s = await mustGet(params.id);
      const { makeShared } = await work();
      return makeShared(pi, s, params, ctx);
    },

    /** Imports age files with their password: all are decrypted first, so a wrong password stores nothing. */
    async importEncrypted(params: { files: Array<{ path: string; file: Blob }>; passphrase: string }, ctx: CallContext = noContext): Promise<ImportReport> {
      const { decryptAll } = await work();
      const plain = await decryptAll(params.files, params.passphrase, ctx.signal);
      try {
        return await importAll(plain, { store, signal: ctx.signal });
      } finally {
        await store.flush().catch(() => undefined);
      }
    },
  };
}
