import { RhoError } from '../../worker/client.ts';
import { worker } from '../worker.ts';

export type {
  EntryHit,
  ImportOutcome,
  ImportReport,
  SearchResults,
  SessionResult,
  SessionSummary,
  SnippetPart,
  ImportSource,
} from '../../worker/library/api.ts';

/** An exported file, ready to download, save or share. */
export interface Exported {
  name: string;
  blob: Blob;
}

/** A file with the path it had inside a dropped or picked folder. */
export interface PathedFile {
  path: string;
  file: File;
}

/** Storage usage as the worker reports it. */
export interface StorageInfo {
  persistent: boolean;
  usage: number;
  quota: number;
  opfs: boolean;
  /** Why the library is held in memory (when `opfs` is false). */
  memoryReason?: string;
}

/** The worker (its library calls, by the names of worker-api.md). */
export const library = worker;

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
