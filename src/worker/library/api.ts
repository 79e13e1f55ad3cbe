import { uuidv7From } from '../../core/index.ts';
import { isForeignAgent } from '../../core/index.ts';
import { StoreError } from '../../storage/errors.ts';
import { piFileName } from '../../storage/names.ts';
import { piView } from '../../storage/pi-view.ts';
import type { SessionSummary } from '../../storage/types.ts';
import type { WorkerEnv } from '../env.ts';
import { appendEntries, assertWritable, renameStored } from './edit.ts';
import { exportBranchChunks, exportBundleBlob, exportName, forkChunks } from './export.ts';
import { type ImportContext, importAll, type ImportReport, type IncomingFile } from '../import/api.ts';
import { ApiFailure, type CallContext } from '../protocol.ts';
import { withChildren } from '../subagents/bundle.ts';

export type { SessionSummary } from '../../storage/types.ts';
export type { ImportItem, ImportOutcome, ImportReport } from '../import/api.ts';
export type { EntryHit, SearchResults, SessionResult, SnippetPart } from '../search/api.ts';

/** Sessions whose summaries changed (those still stored), and every stored id in list order. */
export interface ListChanges {
  changed: SessionSummary[];
  order: string[];
}

/** Where an import came from (the UI may word its report by it). */
export type ImportSource = 'drop' | 'picker' | 'share' | 'launch' | 'paste';

const noContext: CallContext = { signal: new AbortController().signal, progress: () => undefined };

// Progress is posted at most this often (ms): a 100 MB import must not flood the page with messages.
const PROGRESS_EVERY = 100;

/** What else an import feeds: the search index takes each new session's lines as they are written. */
export interface ImportHooks {
  sink?: ImportContext['sink'];
  /** Before every import call (`afterImport` follows it, whatever happens). */
  beforeImport?: () => void;
  /** After every import call (its batch of index parts is written). */
  afterImport?: () => Promise<void>;
}

/** The library half of the worker API: import, list, search, export, delete, rename, label, fork. */
export function createLibraryApi(env: WorkerEnv, hooks: ImportHooks = {}) {
  const { store } = env;
  // Exports for people, forks and branches read sessions as pi (another agent's file: its conversion).
  const pi = piView(store);
  const mustGetPi = async (id: string): Promise<SessionSummary> => {
    const s = await pi.get(id);
    if (!s) throw new ApiFailure('not-found', `No session ${id} is stored.`);
    return s;
  };

  const mustGet = async (id: string): Promise<SessionSummary> => {
    const s = await store.get(id);
    if (!s) throw new ApiFailure('not-found', `No session ${id} is stored.`);
    return s;
  };

  const run = async (files: IncomingFile[], ctx: CallContext): Promise<ImportReport> => {
    const total = files.reduce((n, f) => n + f.file.size, 0);
    let last = 0;
    let current = '';
    // Each file's first bytes are reported at once (the page sees every file start, on any machine);
    // within a file, reports are spaced by time.
    const report = (done: number, label: string, force = false) => {
      const t = Date.now();
      if (!force && label === current && t - last < PROGRESS_EVERY) return;
      last = t;
      ctx.progress({ done: Math.min(total, done), total, label });
    };
    hooks.beforeImport?.();
    try {
      report(0, files[0]?.path ?? '', true);
      const result = await importAll(files, {
        store,
        signal: ctx.signal,
        sink: hooks.sink,
        onBytes: (n, label) => {
          report(n, label);
          current = label;
        },
      });
      report(total, current, true);
      return result;
    } finally {
      // Whatever was imported before a cancel or failure stays, and is listed.
      await store.flush().catch(() => undefined);
      await hooks.afterImport?.().catch(() => undefined);
    }
  };

  return {
    /** Answers with what it was sent: proves the worker is alive. */
    async ping(params: { message: string }, _ctx?: CallContext): Promise<{ pong: string; at: string }> {
      return { pong: params.message, at: 'worker' };
    },

    /** Imports files, folders (path + file) and bundles; one outcome per file. Progress in bytes; cancellable. */
    async importFiles(
      params: { files: Array<File | { path: string; file: File }>; source?: ImportSource },
      ctx: CallContext = noContext,
    ): Promise<ImportReport> {
      const files: IncomingFile[] = params.files.map((f) =>
        f instanceof Blob ? { path: (f as File).name ?? 'file', file: f } : { path: f.path || f.file.name, file: f.file },
      );
      return run(files, ctx);
    },

    /** Imports pasted JSONL text as one file. */
    async importText(params: { text: string; name?: string }, ctx: CallContext = noContext): Promise<ImportReport> {
      return run([{ path: params.name ?? 'pasted text', file: new Blob([params.text], { type: 'text/plain' }) }], ctx);
    },

    /** Sessions from the index, most recently written first; `query` filters on title, first message and cwd. */
    async listSessions(params: { query?: string } = {}, _ctx?: CallContext): Promise<SessionSummary[]> {
      const list = await store.list();
      const q = params.query?.trim().toLowerCase();
      if (!q) return list;
      return list.filter((s) => [s.title, s.firstMessage, s.cwd].some((x) => x?.toLowerCase().includes(q)));
    },

    /**
     * What changed in the list for the sessions `ids` (a change notice's): the summaries of those
     * still stored, and every stored id in list order. The page updates its list from this without
     * the whole list crossing over again (a sync bringing a thousand sessions sends its notices in batches).
     */
    async listChanges(params: { ids: string[] }, _ctx?: CallContext): Promise<ListChanges> {
      const want = new Set(params.ids);
      const list = await store.list();
      return { changed: list.filter((s) => want.has(s.id)), order: list.map((s) => s.id) };
    },

    /** One session's summary (for a reader that was opened by id). */
    async getSession(params: { id: string }, _ctx?: CallContext): Promise<SessionSummary> {
      return mustGet(params.id);
    },

    /** Moves a session to the trash; `undoDelete` with the token brings it back. */
    async deleteSession(params: { id: string }, _ctx?: CallContext): Promise<{ undoToken: string }> {
      const undoToken = await store.withWriteLock(params.id, () => store.trash(params.id));
      await store.flush();
      return { undoToken };
    },

    /** Restores a deleted session. */
    async undoDelete(params: { undoToken: string }, _ctx?: CallContext): Promise<void> {
      const id = /^\d+~(.+)\.jsonl$/.exec(params.undoToken)?.[1];
      await store.withWriteLock(id ? decodeURIComponent(id) : params.undoToken, () => store.restore(params.undoToken));
      await store.flush();
    },

    /** Renames: appends `session_info` (pi) and `title_change` (omp); omp's title slot is rewritten when present. */
    async renameSession(params: { id: string; title: string }, _ctx?: CallContext): Promise<SessionSummary> {
      if (!params.title.trim()) throw new ApiFailure('invalid-input', 'A title cannot be empty.');
      await mustGet(params.id);
      const s = await store.withWriteLock(params.id, () => renameStored(store, params.id, params.title, env));
      await store.flush();
      return s;
    },

    /** Labels an entry (appends a `label` entry; an empty label clears it). */
    async labelEntry(params: { id: string; entryId: string; label: string }, _ctx?: CallContext): Promise<void> {
      await store.withWriteLock(params.id, async () => {
        await assertWritable(store, params.id);
        const scan = await store.scan(params.id);
        if (!scan.tree.byId.has(params.entryId)) throw new ApiFailure('not-found', `No entry ${params.entryId} in this session.`);
        const label = params.label.trim();
        await appendEntries(store, params.id, [{ type: 'label', targetId: params.entryId, ...(label ? { label } : {}) }], env);
      });
      await store.flush();
    },

    /** Appends entries (built with the core's builders) after the leaf: the reader half uses it for its writes. */
    async appendEntries(params: { id: string; entries: Array<{ type: string; [k: string]: unknown }> }, _ctx?: CallContext): Promise<SessionSummary> {
      const s = await store.withWriteLock(params.id, () => appendEntries(store, params.id, params.entries, env));
      await store.flush();
      return s;
    },

    /** A new session holding the branch that ends at `leafId`. */
    async forkBranch(params: { id: string; leafId?: string }, _ctx?: CallContext): Promise<SessionSummary> {
      const source = await mustGetPi(params.id);
      const now = env.now();
      const fresh = { id: uuidv7From(now.getTime(), env.randomId), timestamp: now.toISOString() };
      const s = await store.withWriteLock(fresh.id, async () => store.create(fresh.id, await forkChunks(pi, source, params.leafId, fresh)));
      await store.flush();
      return s;
    },

    /** The original bytes, as imported (byte for byte). */
    async exportSession(params: { id: string }, _ctx?: CallContext): Promise<{ name: string; blob: Blob }> {
      const s = await mustGet(params.id);
      return { name: exportName(s), blob: await store.readFile(params.id) };
    },

    /**
     * A Claude Code or Codex session as a pi v3 file (its conversion, the whole tree), named as pi
     * names session files, so `pi --session <file>` continues it. The original stays as it was.
     */
    async exportPiSession(params: { id: string }, _ctx?: CallContext): Promise<{ name: string; blob: Blob }> {
      const s = await mustGet(params.id);
      const blob = await store.readConversion(params.id);
      if (!blob || !isForeignAgent(s.agent)) throw new ApiFailure('invalid-input', 'This session is a pi session already: export it as it is.');
      return { name: piFileName(s.id.replace(/~\d+$/, ''), s.created), blob: new Blob([blob], { type: 'application/x-ndjson' }) };
    },

    /** The active branch (or the one ending at leafId) as a linear JSONL session. */
    async exportBranch(params: { id: string; leafId?: string }, ctx: CallContext = noContext): Promise<{ name: string; blob: Blob }> {
      const s = await mustGetPi(params.id);
      const { blob } = await store.spool(await exportBranchChunks(pi, s, params.leafId), ctx.signal);
      return { name: piFileName(s.id, s.created).replace(/\.jsonl$/, '.branch.jsonl'), blob: new Blob([blob], { type: 'application/x-ndjson' }) };
    },

    /**
     * The one-file web page of a session (src/worker/share/html-page.ts): the whole file opening on
     * leafId, or with `branch` only the branch ending at leafId (the file's leaf when absent);
     * encrypted (age, passphrase) when a passphrase is given. The page builder loads on first use.
     */
    async exportHtml(
      params: { id: string; leafId?: string; branch?: boolean; passphrase?: string },
      ctx: CallContext = noContext,
    ): Promise<{ name: string; blob: Blob }> {
      const s = await mustGetPi(params.id);
      const bytes = params.branch
        ? new Uint8Array(await (await store.spool(await exportBranchChunks(pi, s, params.leafId), ctx.signal)).blob.arrayBuffer())
        : await pi.readBytes(params.id);
      const { buildHtmlPage } = await import('../share/html-page.ts');
      const blob = await buildHtmlPage(bytes, {
        title: s.title || 'Session',
        leafId: params.branch ? undefined : params.leafId,
        passphrase: params.passphrase,
      });
      return { name: piFileName(s.id, s.created).replace(/\.jsonl$/, params.branch ? '.branch.html' : '.html'), blob };
    },

    /** A zip bundle of sessions (all when ids is absent) with the omp blobs they refer to. */
    async exportBundle(params: { ids?: string[] } = {}, ctx: CallContext = noContext): Promise<{ name: string; blob: Blob }> {
      const all = await store.list();
      // A parent's subagent transcripts go with it.
      const chosen = withChildren(params.ids ? params.ids.map((id) => all.find((s) => s.id === id) ?? missing(id)) : all, all);
      const blob = await exportBundleBlob(store, chosen, ctx.signal, (done, total) => ctx.progress({ done, total, label: 'bundle' }), all);
      const day = env.now().toISOString().slice(0, 10);
      return { name: `rho-sessions-${day}.zip`, blob: new Blob([blob], { type: 'application/zip' }) };
    },

    /** Usage and quota, whether storage is persistent, whether OPFS is there at all (and, when not, why). */
    async storageInfo(
      _params: Record<string, never> = {},
      _ctx?: CallContext,
    ): Promise<{ persistent: boolean; usage: number; quota: number; opfs: boolean; memoryReason?: string }> {
      const { usage, quota } = await store.estimate();
      const persisted = typeof navigator !== 'undefined' && navigator.storage?.persisted ? await navigator.storage.persisted() : false;
      return {
        persistent: store.persistent && persisted,
        usage,
        quota,
        opfs: store.persistent,
        ...(env.memoryReason ? { memoryReason: env.memoryReason } : {}),
      };
    },

    /** Whether storage is persistent. navigator.storage.persist() must be asked from the page (a worker cannot). */
    async requestPersist(_params: Record<string, never> = {}, _ctx?: CallContext): Promise<boolean> {
      return typeof navigator !== 'undefined' && navigator.storage?.persisted ? navigator.storage.persisted() : false;
    },

    /** Rebuilds the index from the files (a repair the UI may offer; the store also does it by itself). */
    async rebuildIndex(_params: Record<string, never> = {}, _ctx?: CallContext): Promise<{ sessions: number }> {
      await store.rebuild();
      return { sessions: (await store.list()).length };
    },
  };
}

function missing(id: string): never {
  throw new StoreError('not-found', `No session ${id} is stored.`);
}
