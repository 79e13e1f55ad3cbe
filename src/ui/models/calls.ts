import type { CallOptions } from '../../worker/client.ts';
import { RhoError } from '../../worker/client.ts';
import { worker } from '../worker.ts';

/** One stored session as the library lists it (worker-api.md). */
export interface SessionSummary {
  id: string; path: string; title: string | null; firstMessage: string | null; cwd: string;
  created: string; modified: number; size: number; entryCount: number; branchCount: number;
  model: string | null; totals: { tokens: number; output: number; cost: number }; problems: number; variantOf?: string;
}

/** What happened to each file of one import. */
export interface ImportReport {
  items: Array<{ name: string; outcome: ImportOutcome; id?: string; reason?: string; line?: number; problems?: number }>;
}

/** The outcome of one imported file. */
export type ImportOutcome = 'added' | 'updated' | 'unchanged' | 'kept-newer' | 'variant' | 'rejected';

/** One search result across the library. */
export interface SearchHit { id: string; title: string | null; entryId?: string; snippet: string }

/** An exported file, ready to download, save or share. */
export interface Exported { name: string; blob: Blob }

/** A file with the path it had inside a dropped or picked folder. */
export interface PathedFile { path: string; file: File }

/** Where an import came from (the worker may log or label by it). */
export type ImportSource = 'drop' | 'picker' | 'share' | 'launch' | 'paste';

/** Storage usage as the worker reports it. */
export interface StorageInfo { persistent: boolean; usage: number; quota: number; opfs: boolean }

/**
 * The library half of the worker API as the page calls it, by the names of worker-api.md. Declared
 * here so the page compiles while the storage half lands; calls reach the one worker client.
 */
export interface LibraryCalls {
  importFiles(p: { files: Array<File | PathedFile>; source?: ImportSource }, o?: CallOptions): Promise<ImportReport>;
  importText(p: { text: string; name?: string }, o?: CallOptions): Promise<ImportReport>;
  listSessions(p: { query?: string }, o?: CallOptions): Promise<SessionSummary[]>;
  search(p: { query: string; limit?: number }, o?: CallOptions): Promise<SearchHit[]>;
  deleteSession(p: { id: string }, o?: CallOptions): Promise<{ undoToken: string }>;
  undoDelete(p: { undoToken: string }, o?: CallOptions): Promise<void>;
  renameSession(p: { id: string; title: string }, o?: CallOptions): Promise<SessionSummary>;
  exportSession(p: { id: string }, o?: CallOptions): Promise<Exported>;
  exportBranch(p: { id: string; leafId?: string }, o?: CallOptions): Promise<Exported>;
  exportBundle(p: { ids?: string[] }, o?: CallOptions): Promise<Exported>;
  storageInfo(p?: Record<string, never>, o?: CallOptions): Promise<StorageInfo>;
}

/** The worker's library calls. */
export const library = worker as unknown as LibraryCalls;

/** True when the worker does not have this method yet (an older or partial build). */
export function isMissingMethod(error: unknown): boolean {
  return error instanceof RhoError && /Unknown worker method/.test(error.message);
}

/** True when the user cancelled the call. */
export function isAborted(error: unknown): boolean {
  return (error instanceof RhoError && error.code === 'aborted') || (error instanceof DOMException && error.name === 'AbortError');
}

/** A sentence for the user from anything thrown by a call. */
export function describeError(error: unknown): string {
  if (isMissingMethod(error)) return 'This part of the app is not ready in this build.';
  if (error instanceof RhoError) return error.line ? `${error.message} (line ${error.line})` : error.message;
  return error instanceof Error ? error.message : String(error);
}
