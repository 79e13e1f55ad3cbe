import type { Agent, SessionDigest, SessionScan, SubagentLink, SummaryTotals, UsageDigest } from '../core/index.ts';
import type { IndexState } from '../core/envelope/envelope-records.ts';

export type { SessionDigest, SessionScan, SummaryTotals } from '../core/index.ts';

/**
 * The store the worker works on, built once (store.ts) over a `Disk`: OPFS in the browser
 * (opfs-disk.ts), memory in Node tests and private windows (memory-disk.ts).
 * The reader half of the worker API needs only readBytes, readBlob and get.
 */

/** A child's relation to its parent, as kept in links/ and on its index record. */
export interface ParentLink {
  parentOf: string;
  subagent: SubagentLink;
}

/**
 * What the store learns from a file's bytes, read as they are written or read back: the core's
 * scan (digest, slim tree, blob refs) and, for another agent's file, the pi conversion's bytes,
 * which the store keeps in derived/ for the pi view.
 */
export interface StoredRead extends SessionScan {
  derived?: Uint8Array;
}

/** One reading of a file: its bytes pushed in order (they may be reused once `push` returns), then `finish`, once. */
export interface SessionReading {
  push(chunk: Uint8Array): void;
  finish(): StoredRead;
}

/**
 * How the store reads a stored file it did not just write (a rebuild, a file that grew, a restore):
 * `name` is the file's name in sessions/. The worker gives one that tells the agent's format
 * (worker import); the store's own reads pi files only.
 */
export type SessionReader = (name: string) => SessionReading;

/** The state a stored envelope index ends with (core `IndexState`), and the bytes of its file. */
export interface StoredEnvelopeState {
  state: IndexState;
  fileBytes: number;
}

/** What a writer that holds a session in memory knows of the file after its append. */
export interface KnownAppend {
  /** The file's size before the append. */
  size: number;
  /** The digest of the whole file after the append (core `digestHeld`). */
  digest: SessionDigest;
}

/** One session as the library lists it: a record of the index, rebuildable from the file. */
export interface SessionSummary {
  /** The store id: the header id, or `<header id>~<n>` for a variant kept beside it. */
  id: string;
  /** Where the bytes live in the store, e.g. `sessions/2026-01-01T00-00-00-000Z_<id>.jsonl`. */
  path: string;
  title: string | null;
  firstMessage: string | null;
  cwd: string;
  /** Header timestamp (ISO), '' when absent. */
  created: string;
  /** ms since epoch of the last write through this store. */
  modified: number;
  /** The session's date in ms, shown and sorted by everywhere (core `createSessionDate`); 0 when unknown. */
  date: number;
  /** Bytes of the file. */
  size: number;
  entryCount: number;
  branchCount: number;
  model: string | null;
  totals: SummaryTotals;
  /** Usage per 15-minute UTC slice × model, on and off the active branch (core `createUsageCollector`). */
  usage: UsageDigest;
  /** Problems the reader found (framing, header, tree, entry shapes). */
  problems: number;
  /** For a variant: the store id of the session it diverged from. */
  variantOf?: string;
  /** For a fork (pi or omp): the session id its header names as the one it came from (`parentSession`). */
  forkOf?: string;
  /** The agent that wrote the file (pi or omp, or Claude Code or Codex), when its records say; absent when they do not. */
  agent?: Agent;
  /** Another agent's file (Claude Code, Codex): the size of its pi conversion, which the pi view reads (`size` stays the original's). */
  piSize?: number;
  /** For a subagent transcript: the store id of the session that ran it (its cost counts in that parent's). */
  parentOf?: string;
  /** For a subagent transcript: its layout beside the parent and the parent's entry (tool call) that started it. */
  subagent?: SubagentLink;
}

/** Chunks of bytes, read in order (a Blob's stream, a decompressor, an unzipped entry). */
export type ByteChunks = AsyncIterable<Uint8Array>;

/** Size and time of one file on a Disk. */
export interface DiskEntry {
  name: string;
  size: number;
  modified: number;
}

/**
 * The few file operations the store needs, all on paths `dir/name` one level deep. Writes are
 * all-or-nothing: `writeNew` builds the file aside and swaps it in when complete; `append` cuts
 * the file back to its old size when a write fails (e.g. QuotaExceededError).
 */
export interface Disk {
  /** Whether what is written survives a reload (OPFS) or not (memory). */
  readonly persistent: boolean;
  /** Files of a directory with their sizes and times (none when it does not exist). */
  list(dir: string): Promise<DiskEntry[]>;
  /** Just the file names of a directory: much cheaper than `list` on OPFS (no file opened). */
  names(dir: string): Promise<string[]>;
  /** The size of a file, or null when it does not exist. */
  size(path: string): Promise<number | null>;
  /** Size and last-write time of a file, or null when it does not exist. */
  stat(path: string): Promise<DiskEntry | null>;
  /** Bytes [start, end) of a file (end clipped to its size). Throws NotFoundError when absent. */
  read(path: string, start?: number, end?: number): Promise<Uint8Array>;
  /** The file as a Blob (OPFS: a snapshot that stays valid until the file is written again). */
  blob(path: string): Promise<Blob>;
  /**
   * Opens a file that is never written again for many small reads (OPFS: a read-only sync access
   * handle, shared with other readers, but which keeps the file from being removed or replaced until
   * it is closed). Optional: without it, reads go through `blob`.
   */
  openReader?(path: string): Promise<FileReaderAt>;
  /** Writes a whole file from chunks and swaps it in only when complete; returns its size. */
  writeNew(path: string, chunks: ByteChunks, signal?: AbortSignal): Promise<number>;
  /**
   * Writes a whole file straight at `path`, with no temp file and no move (replacing what is there);
   * on a failure (quota, cancel) the partial file is removed. A crash mid-write leaves it half
   * written: only for a path the caller's creation log names (store.ts), or a file checked when read.
   * `flush: false` skips the fsync (a cache); `fresh`: no file was at `path` (the caller looked under its lock). Optional: a disk without it has only `writeNew`.
   */
  writeInPlace?(path: string, chunks: ByteChunks, opts?: { signal?: AbortSignal; flush?: boolean; fresh?: boolean }): Promise<number>;
  /** Creates (or opens a leftover of) `path` for `writeInPlace`'s write, done later through what it gives; on a failure nothing is left at `path`. */
  openInPlace?(path: string): Promise<InPlaceFile>;
  /** Opens a file to add lines at its end, synchronously (the store's creation log); one opener at a time. */
  openLog?(path: string): Promise<LogFile>;
  /** Appends bytes (or chunks) at the end; on any failure the file is cut back to its previous size. */
  append(path: string, bytes: Uint8Array | ByteChunks, signal?: AbortSignal): Promise<void>;
  /** Cuts a file back to `size` bytes (undoing an append a crash left half done). */
  truncate(path: string, size: number): Promise<void>;
  /** Renames a file (replacing the target). */
  move(from: string, to: string): Promise<void>;
  /** Removes a file (no error when absent). */
  remove(path: string): Promise<void>;
  /** Storage usage and quota in bytes. */
  estimate(): Promise<{ usage: number; quota: number }>;
}

/** A file open for reads at any place (Disk.openReader). */
export interface FileReaderAt {
  /** The file's size when opened. */
  readonly size: number;
  /** Bytes [start, end) (end clipped to the size), read at once. Throws once closed. */
  read(start: number, end: number): Uint8Array;
  close(): void;
}

/** A file created for one whole write in place (Disk.openInPlace). */
export interface InPlaceFile {
  /** Writes the whole file as `writeInPlace` does (removed on a failure) and closes it; once. */
  write(chunks: ByteChunks, opts?: { signal?: AbortSignal; flush?: boolean; fresh?: boolean }): Promise<number>;
  /** Closes and removes it unwritten. */
  discard(): Promise<void>;
}

/** A file open for adding lines (Disk.openLog). */
export interface LogFile {
  /** Adds one line (a "\n" is added) after the last and gives its bytes' count; throws when the disk refuses it (full). */
  write(line: string): number;
  /** Makes the file `size` bytes long (zeros after what was written), so later lines need no room; throws QuotaExceededError. */
  reserve(size: number): void;
  close(): void;
}

/** What a store write tells the rest of the app: which sessions changed. */
export type ChangeListener = (ids: string[]) => void;

/** The session store: original bytes, blobs, and the index that lists them. */
export interface SessionStore {
  /** Whether sessions survive a reload (false: in memory only, nothing will be kept). */
  readonly persistent: boolean;
  /** The original bytes of a stored session. Throws ApiFailure('not-found') when absent. */
  readBytes(id: string): Promise<Uint8Array>;
  /** Bytes [start, end) of a stored session. */
  readRange(id: string, start: number, end: number): Promise<Uint8Array>;
  /** A stored session's bytes as a Blob (for export without copying into memory). */
  readFile(id: string): Promise<Blob>;
  /** Another agent's session (Claude Code, Codex): its pi conversion, fresh against the original; null for a pi session. */
  readConversion(id: string): Promise<Blob | null>;
  /** The session's stored envelope index (core/envelope/envelope-file.ts), or null; a cache the reader checks against the file. */
  readEnvelopes?(id: string): Promise<Uint8Array | null>;
  /** Stores the session's envelope index, replacing the one before. */
  writeEnvelopes?(id: string, bytes: Uint8Array): Promise<void>;
  /** What the stored envelope index covers, from its last block alone (core/envelope/envelope-records.ts), and its file's size; null when none or torn. */
  readEnvelopeState?(id: string): Promise<StoredEnvelopeState | null>;
  /** Adds a block of appended entries at the end of the stored envelope index. */
  appendEnvelopes?(id: string, block: Uint8Array): Promise<void>;
  /** The session's bytes as synchronous range reads, for a store that holds them so (the share page's worker, which unpacks chunks on demand). */
  rangeReader?(id: string): Promise<{ size: number; read(start: number, end: number): Uint8Array }>;
  /** An omp image blob by its sha256 (hex), or null when it was not imported. */
  readBlob(sha256: string): Promise<Blob | null>;
  /** Whether an image blob is stored. */
  hasBlob(sha256: string): Promise<boolean>;
  /** Stores an image blob under its sha256 (the caller checked the hash). */
  writeBlob(sha256: string, bytes: Uint8Array): Promise<void>;
  /** One session's summary, or null. */
  get(id: string): Promise<SessionSummary | null>;
  /** The session stored under a header id, then its variants in the order they were made. */
  family(headerId: string): Promise<SessionSummary[]>;
  /** Every session, most recently written first (module description: `list`). */
  list(): Promise<SessionSummary[]>;
  /** The path of the most recently written session, or null (module description: `latest`). */
  latest(): Promise<string | null>;
  /** Where sessions live in the store (module description: `dir`). */
  dir(): string;
  /**
   * Writes a new session file from chunks (swapped in when complete) and indexes it from what
   * `reading` made of the chunks as they were written (the store's reader when none is given).
   * `checked`: the caller holds the session's write lock and has just seen that no file is at `id`.
   */
  create(
    id: string,
    chunks: ByteChunks,
    opts?: {
      variantOf?: string;
      signal?: AbortSignal;
      checked?: boolean;
      reading?: SessionReading;
    },
  ): Promise<SessionSummary>;
  /** Reads a stored session once through: digest, slim tree (for core `append`), blob refs. */
  scan(id: string): Promise<SessionScan>;
  /** Appends exact bytes (an import's extension, possibly in chunks), then re-indexes. */
  appendRaw(id: string, bytes: Uint8Array | ByteChunks, signal?: AbortSignal): Promise<SessionSummary>;
  /**
   * Appends complete lines, first making the file end in "\n"; then re-indexes: from `known` when
   * given and the file is still `known.size` bytes ending in "\n" (the writer's digest of the whole
   * file after these lines: nothing of the file is read), else by reading the file again.
   */
  appendLines(id: string, bytes: Uint8Array, known?: KnownAppend): Promise<SessionSummary>;
  /** Replaces a session's bytes with a complete new file (repair/convert), swapped in when complete. */
  replace(id: string, chunks: ByteChunks): Promise<SessionSummary>;
  /** Records that a stored session is a subagent transcript of another (kept in links/, put on its index record). */
  setParent(id: string, link: ParentLink): Promise<SessionSummary>;
  /** Moves a session to the trash; the token brings it back. */
  trash(id: string): Promise<string>;
  /** Brings a trashed session back. */
  restore(token: string): Promise<SessionSummary>;
  /**
   * Runs `fn` holding the one-writer lock of a session (Web Locks across tabs); an abort while
   * waiting for it rejects. `creating`: `fn` may create the session (an import), so a file opened
   * for it ahead (`reserve`) is kept for `create`.
   */
  withWriteLock<T>(id: string, fn: () => Promise<T>, signal?: AbortSignal, creating?: boolean): Promise<T>;
  /** Takes the lock of a session an import will write next, ahead of its turn (see write-locks.ts); `withWriteLock` uses it. */
  reserve?(id: string): void;
  /** Lets go of the locks `reserve` took that were not used (the end of an import). */
  releaseReserved?(): Promise<void>;
  /** Writes pending index records now (the store batches them). */
  flush(): Promise<void>;
  /** Resolves when the check of the index against the files, started when the store opened, is done. */
  settled(): Promise<void>;
  /** Re-reads every file and writes a fresh index (the index is only a cache). */
  rebuild(): Promise<void>;
  /** Storage usage and quota. */
  estimate(): Promise<{ usage: number; quota: number }>;
  /** Writes chunks to a scratch file and gives it back as a Blob (decompressed or unzipped input, exports). */
  spool(chunks: ByteChunks, signal?: AbortSignal): Promise<{ blob: Blob; release(): Promise<void> }>;
}
