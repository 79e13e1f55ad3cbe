// A folder the agent writes in (a linked folder): read freely, written only by appending to a file
// that is still exactly what we read, or by creating a file that does not exist. There is no
// truncate, remove, move or overwrite here on purpose: an agent's own files are never cut, replaced or deleted.
import type { ByteChunks } from './types.ts';

/** One file of the folder, with its path inside it (`a/b/c.jsonl`). */
export interface FolderFile {
  path: string;
  size: number;
  modified: number;
  /**
   * The file's bytes as the walk saw them (a File snapshot), when the walk had them in hand. Where
   * the browser refuses to read a snapshot of a file changed since (a picked folder's file written
   * to, any file removed), `blob(path)` reads it as it is.
   */
  snapshot?: Blob;
}

/** The operations a linked folder allows. */
export interface FolderDisk {
  /** The folder's name, for messages. */
  readonly name: string;
  /** Every file under the folder (recursively), in no particular order. */
  walk(signal?: AbortSignal): AsyncIterable<FolderFile>;
  /** Size and time of a file, or null when absent. */
  stat(path: string): Promise<FolderFile | null>;
  /** A snapshot of the file's bytes. */
  blob(path: string): Promise<Blob>;
  /**
   * Appends bytes to a file that still has exactly `expectedSize` bytes; refuses (ConflictError,
   * the file untouched) when it has grown or shrunk since it was read.
   */
  appendAt(path: string, expectedSize: number, bytes: Uint8Array): Promise<void>;
  /** Creates a file that does not exist yet (refuses with ConflictError when it does). */
  createNew(path: string, chunks: ByteChunks): Promise<void>;
}

/** The error a refused write gives: the folder's file is not what the caller thought it was. */
export function folderConflict(message: string): DOMException {
  return new DOMException(message, 'InvalidModificationError');
}
