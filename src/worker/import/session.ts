// One session file's import: a session is recognised by its content (header, or omp title slot
// then header), its id is the header id, and bytes already stored decide what happens: identical →
// unchanged; stored is a prefix of the new → append the rest (updated); the new is a prefix of the
// stored → kept-newer; diverged → kept beside it as a variant. Nothing is dropped.
//
// A new session's bytes stream through here once: read from the file, written to the store, scanned
// for its summary, and shown to the import's sink (the search index) on the way (`SessionSink`).
import { readHeader, type Problem } from '../../core/index.ts';
import { type Conversion, convertToPi, detectFormat, HEAD_BYTES } from '../../core/formats/index.ts';
import { binaryKind } from '../../core/read/magic.ts';
import { blobChunks, CHUNK_SIZE, sliceOf, WRITE_SIZE } from '../../storage/chunks.ts';
import { variantId } from '../../storage/names.ts';
import type { SessionReading, SessionStore, SessionSummary, StoredRead } from '../../storage/types.ts';
import { indexAppend, indexNewSession } from './envelopes.ts';
import { convertedReading, piReading } from './reading.ts';
import { isAge } from '../share/age-magic.ts';

/** What happened to one file. */
export type ImportOutcome = 'added' | 'updated' | 'unchanged' | 'kept-newer' | 'variant' | 'rejected';

/** One line of an import report. */
export interface ImportItem {
  name: string;
  outcome: ImportOutcome;
  id?: string;
  reason?: string;
  line?: number;
  problems?: number;
  /** For a bundle's entry: the stored session's title as the library shows it (its title, else its first message), so the report names sessions, not only paths. */
  title?: string;
  /** A subagent transcript: the store id of the session that ran it. */
  parentOf?: string;
}

/** How the bytes of a stored session relate to incoming ones. */
export type ByteRelation = 'identical' | 'stored-prefix' | 'incoming-prefix' | 'diverged';

/**
 * What sees a new session's bytes while they are written (the search index builds its part from
 * them, so nothing reads the file a second time). Calls are synchronous, in file order.
 */
export interface SessionSink {
  /** Each chunk of the file as it is written. */
  chunk?(bytes: Uint8Array): void;
  /** Each parsed line (before migration), as the store's scan parses it for the summary. */
  value?(value: Record<string, unknown>): void;
  /** The file is stored under `summary`. */
  done?(summary: SessionSummary): void;
  /** The file was not stored (its write failed): what was shown is dropped. */
  abandon?(): void;
}

/** What an import needs from its caller. */
export interface ImportContext {
  store: SessionStore;
  signal?: AbortSignal;
  /** Bytes consumed so far (for progress), with the file being read. */
  onBytes?: (bytes: number, label: string) => void;
  /** A sink for each new session's bytes (added or variant; appends are re-read by whoever follows them). */
  sink?: (id: string) => SessionSink | null;
}

const HEAD_STEPS = [64 * 1024, 1024 * 1024, 16 * 1024 * 1024];

/**
 * Bytes read first from each file: its kind and header from one read, and a session up to a
 * write's size whole (one read, one chunk written as it is: no second read, and no copy that
 * joins two chunks into one write, chunks.ts coalesce).
 */
export const FIRST_READ = WRITE_SIZE;

/** Compares stored bytes with incoming ones, chunk by chunk, never holding more than two chunks. */
export async function relate(store: SessionStore, id: string, storedSize: number, incoming: Blob, signal?: AbortSignal): Promise<ByteRelation> {
  const common = Math.min(storedSize, incoming.size);
  for (let at = 0; at < common; at += CHUNK_SIZE) {
    signal?.throwIfAborted();
    const end = Math.min(at + CHUNK_SIZE, common);
    const [a, b] = await Promise.all([
      store.readRange(id, at, end),
      sliceOf(incoming, at, end)
        .arrayBuffer()
        .then((x) => new Uint8Array(x)),
    ]);
    if (!sameBytes(a, b)) return 'diverged';
  }
  if (storedSize === incoming.size) return 'identical';
  return storedSize < incoming.size ? 'stored-prefix' : 'incoming-prefix';
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  // Eight bytes at a time where alignment allows: the compare runs over whole sessions.
  const n8 = a.byteOffset % 8 === 0 && b.byteOffset % 8 === 0 ? a.length >>> 3 : 0;
  if (n8) {
    const x = new BigUint64Array(a.buffer, a.byteOffset, n8);
    const y = new BigUint64Array(b.buffer, b.byteOffset, n8);
    for (let i = 0; i < n8; i++) if (x[i] !== y[i]) return false;
  }
  for (let i = n8 * 8; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The first bytes of a file, as one read (`FIRST_READ`, or the whole file when smaller). */
export async function firstBytes(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await sliceOf(blob, 0, FIRST_READ).arrayBuffer());
}

/** The header of a file from its first bytes, and those bytes (reused as the first chunk written). */
async function headOf(blob: Blob, first?: Uint8Array): Promise<{ found: ReturnType<typeof readHeader>; head: Uint8Array }> {
  let head = first ?? new Uint8Array(await sliceOf(blob, 0, Math.max(HEAD_STEPS[0], Math.min(blob.size, CHUNK_SIZE))).arrayBuffer());
  let found = readHeader(head);
  // A header line longer than what was read: read further, up to 16 MB.
  for (const step of HEAD_STEPS) {
    if (found.problem?.code !== 'torn' || head.length >= blob.size) break;
    if (step <= head.length) continue;
    head = new Uint8Array(await sliceOf(blob, 0, step).arrayBuffer());
    found = readHeader(head);
  }
  return { found, head };
}

function rejection(name: string, problem: Problem | undefined, blob: Blob, head: Uint8Array): ImportItem {
  if (blob.size === 0) return { name, outcome: 'rejected', reason: 'not a session: the file is empty' };
  // A picture or a document named .jsonl: say what it is, not which line failed to parse.
  const binary = binaryKind(head);
  if (binary) return { name, outcome: 'rejected', reason: `this is ${binary}, not a session` };
  const line = problem?.line ?? 1;
  const what =
    problem?.code === 'no-header'
      ? `line ${line} is not a session header`
      : problem?.code === 'torn'
        ? `line ${line} is cut off before its end`
        : problem?.code === 'invalid-json'
          ? `line ${line} is not JSON`
          : problem?.code === 'not-an-object'
            ? `line ${line} is not a JSON object`
            : (problem?.message ?? 'no session header');
  return { name, outcome: 'rejected', reason: `not a session: ${what}`, line };
}

/** Imports one blob that should hold a session text (`first`: its first bytes, when already read). */
export async function importSessionBlob(name: string, blob: Blob, ctx: ImportContext, first?: Uint8Array): Promise<ImportItem & { refs?: Set<string> }> {
  const { store, signal } = ctx;
  const read = await headOf(blob, first);
  const head = read.head;
  let found = read.found;
  // The file's format, decided here once: a pi header at its start, else Claude Code and Codex
  // files told by their content, whose session is their pi conversion's (its header id is the
  // store id) while the bytes stored are theirs.
  let conversion: Conversion | null = null;
  const format = found.header ? 'pi' : detectFormat(head.subarray(0, HEAD_BYTES));
  if (format !== 'pi') {
    conversion = convertToPi(new Uint8Array(await blob.arrayBuffer()), format, name);
    found = readHeader(conversion.bytes);
    if (!found.header) {
      const first = conversion.problems.find((p) => p.severity === 'error') ?? conversion.problems[0];
      const who = conversion.format === 'codex' ? 'Codex' : 'Claude Code';
      return { name, outcome: 'rejected', reason: `not a readable ${who} session: ${first?.message ?? 'no session in it'}`, line: first?.line ?? 1 };
    }
  }
  if (!found.header || (found.problem && found.problem.code !== 'future-version')) {
    // An age file that came without its .age name (the page asks for a password only by the name).
    if (isAge(head)) return { name, outcome: 'rejected', reason: 'encrypted (age): name it .age and import it again to be asked for its password' };
    return rejection(name, found.problem, blob, head);
  }
  const headerId = found.header.id;
  return store.withWriteLock(headerId, () => writeSession(name, blob, head, headerId, ctx, conversion), signal, true);
}

// Under the session's write lock: compare with what is stored, then append, keep or add.
async function writeSession(
  name: string,
  blob: Blob,
  head: Uint8Array,
  headerId: string,
  ctx: ImportContext,
  conversion: Conversion | null,
): Promise<ImportItem & { refs?: Set<string> }> {
  const { store, signal } = ctx;
  // The wait for the lock may have been long (another tab writing this session): a cancel during it stops here.
  signal?.throwIfAborted();
  const candidates = await store.family(headerId);
  for (const stored of candidates) {
    const relation = await relate(store, stored.id, stored.size, blob, signal);
    if (relation === 'diverged') continue;
    if (relation === 'identical') return item(name, 'unchanged', stored);
    if (relation === 'incoming-prefix') return item(name, 'kept-newer', stored);
    const tail = await indexAppend(store, stored.id, stored.size, blob.size, blobChunks(blob, stored.size, CHUNK_SIZE, signal));
    const updated = await store.appendRaw(stored.id, tail.chunks, signal);
    await tail.save(stored.id);
    ctx.onBytes?.(blob.size, name);
    return item(name, 'updated', updated);
  }
  const main = candidates.find((c) => c.id === headerId);
  const id = main ? freeVariantId(headerId, candidates) : headerId;
  const sink = ctx.sink?.(id) ?? null;
  let done = 0;
  const chunks = async function* () {
    done = head.length;
    ctx.onBytes?.(done, name);
    sink?.chunk?.(head);
    yield head;
    for await (const c of blobChunks(blob, head.length, CHUNK_SIZE, signal)) {
      done += c.length;
      ctx.onBytes?.(done, name);
      sink?.chunk?.(c);
      yield c;
    }
  };
  // The envelope index is built from the same bytes as they are written (no second read of the
  // file); another agent's file is read through its conversion, indexed when first opened.
  const indexed = conversion ? null : indexNewSession(store, chunks(), blob.size);
  const onValue = sink?.value ? (v: Record<string, unknown>) => sink.value?.(v) : undefined;
  const reading = conversion ? convertedReading(conversion, onValue) : piReading(onValue, indexed?.record);
  let read: StoredRead | null = null;
  let created: SessionSummary;
  try {
    created = await store.create(id, indexed?.chunks ?? chunks(), {
      variantOf: main ? headerId : undefined,
      signal,
      // family() just looked, under the lock: no file is at `id`.
      checked: true,
      reading: { push: (c) => reading.push(c), finish: () => (read = reading.finish()) } satisfies SessionReading,
    });
    await indexed?.save(id);
  } catch (e) {
    sink?.abandon?.();
    throw e;
  }
  sink?.done?.(created);
  // Kept with problems: the report names the first one and its line (the reader shows them all).
  const result = read as StoredRead | null;
  const noted = result?.digest.firstProblem;
  const where = noted ? { reason: noted.message, line: noted.line } : {};
  return { ...item(name, main ? 'variant' : 'added', created), ...where, refs: result?.blobRefs };
}

function item(name: string, outcome: ImportOutcome, s: SessionSummary): ImportItem {
  const title = (s.title ?? s.firstMessage ?? '').replace(/\s+/g, ' ').trim();
  const out: ImportItem = { name, outcome, id: s.id, problems: s.problems };
  if (title) out.title = title.length > TITLE_CHARS ? `${title.slice(0, TITLE_CHARS - 1)}…` : title;
  return out;
}

/** Longest title in an import report line. */
const TITLE_CHARS = 100;

function freeVariantId(headerId: string, candidates: SessionSummary[]): string {
  let n = 2;
  const taken = new Set(candidates.map((c) => c.id));
  while (taken.has(variantId(headerId, n))) n++;
  return variantId(headerId, n);
}
