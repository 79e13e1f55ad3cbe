// Import: every file gets an outcome. A session is recognised by its content (header, or omp title
// slot then header), its id is the header id, and bytes already stored decide what happens:
// identical → unchanged; stored is a prefix of the new → append the rest (updated); the new is a
// prefix of the stored → kept-newer; diverged → kept beside it as a variant. Nothing is dropped.
import { readHeader, type Problem } from '../core/index.ts';
import { binaryKind } from '../core/magic.ts';
import { detectFormat } from '../core/formats/index.ts';
import { blobChunks, CHUNK_SIZE } from '../storage/chunks.ts';
import { type Conversion, convert, HEAD_BYTES } from '../storage/foreign.ts';
import { variantId } from '../storage/names.ts';
import type { SessionStore, SessionSummary } from '../storage/types.ts';
import { indexAppend, indexNewSession } from './import-envelopes.ts';
import { ApiFailure } from './protocol.ts';
import { linkSubagents } from './subagents/link.ts';
import { isAge } from './share/age-magic.ts';
import { blobPathHash, eachZipEntry, gunzip, sniff } from './unpack.ts';
import { unzstd } from './unzstd.ts';

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

/** The report of one import call. */
export interface ImportReport {
  items: ImportItem[];
}

/** How the bytes of a stored session relate to incoming ones. */
export type ByteRelation = 'identical' | 'stored-prefix' | 'incoming-prefix' | 'diverged';

/** What an import needs from its caller. */
export interface ImportContext {
  store: SessionStore;
  signal?: AbortSignal;
  /** Bytes consumed so far (for progress), with the file being read. */
  onBytes?: (bytes: number, label: string) => void;
}

const HEAD_STEPS = [64 * 1024, 1024 * 1024, 16 * 1024 * 1024];
const BLOB_REF = /blob:sha256:([0-9a-f]{64})/g;
const NESTING_LIMIT = 2;

/** Compares stored bytes with incoming ones, chunk by chunk, never holding more than two chunks. */
export async function relate(store: SessionStore, id: string, storedSize: number, incoming: Blob, signal?: AbortSignal): Promise<ByteRelation> {
  const common = Math.min(storedSize, incoming.size);
  for (let at = 0; at < common; at += CHUNK_SIZE) {
    signal?.throwIfAborted();
    const end = Math.min(at + CHUNK_SIZE, common);
    const [a, b] = await Promise.all([
      store.readRange(id, at, end),
      incoming
        .slice(at, end)
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

/** The header of a file from its first bytes, and those bytes (reused as the first chunk written). */
async function headOf(blob: Blob): Promise<{ found: ReturnType<typeof readHeader>; head: Uint8Array }> {
  let found = readHeader(new Uint8Array(0));
  let head = new Uint8Array(0);
  for (const step of HEAD_STEPS) {
    head = new Uint8Array(await blob.slice(0, Math.max(step, Math.min(blob.size, CHUNK_SIZE))).arrayBuffer());
    found = readHeader(head);
    if (found.problem?.code !== 'torn' || head.length >= blob.size) break;
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

/** Imports one blob that should hold a session text. */
export async function importSessionBlob(name: string, blob: Blob, ctx: ImportContext): Promise<ImportItem & { refs?: Set<string> }> {
  const { store, signal } = ctx;
  const read = await headOf(blob);
  const head = read.head;
  let found = read.found;
  // Claude Code and Codex files, told by their content: the session is their pi conversion's
  // (its header id is the store id), the bytes stored are theirs.
  let conversion: Conversion | null = null;
  if (!found.header && detectFormat(head.subarray(0, HEAD_BYTES)) !== 'pi') {
    conversion = convert(new Uint8Array(await blob.arrayBuffer()), name);
    if (conversion) {
      found = readHeader(conversion.bytes);
      if (!found.header) {
        const first = conversion.problems.find((p) => p.severity === 'error') ?? conversion.problems[0];
        const who = conversion.format === 'codex' ? 'Codex' : 'Claude Code';
        return { name, outcome: 'rejected', reason: `not a readable ${who} session: ${first?.message ?? 'no session in it'}`, line: first?.line ?? 1 };
      }
    }
  }
  if (!found.header || (found.problem && found.problem.code !== 'future-version')) {
    // An age file that came without its .age name (the page asks for a password only by the name).
    if (isAge(head)) return { name, outcome: 'rejected', reason: 'encrypted (age): name it .age and import it again to be asked for its password' };
    return rejection(name, found.problem, blob, head);
  }
  const headerId = found.header.id;
  return store.withWriteLock(
    headerId,
    async () => {
      // The wait for the lock may have been long (another tab writing this session): a cancel during it stops here.
      signal?.throwIfAborted();
      const candidates = await store.family(headerId);
      for (const stored of candidates) {
        const relation = await relate(store, stored.id, stored.size, blob, signal);
        if (relation === 'diverged') continue;
        if (relation === 'identical') return item(name, 'unchanged', stored);
        if (relation === 'incoming-prefix') return item(name, 'kept-newer', stored);
        const tail = await indexAppend(store, stored.id, stored.size, blobChunks(blob, stored.size, CHUNK_SIZE, signal));
        const updated = await store.appendRaw(stored.id, tail.chunks, signal);
        await tail.save(stored.id);
        ctx.onBytes?.(blob.size, name);
        return item(name, 'updated', updated);
      }
      const main = candidates.find((c) => c.id === headerId);
      const id = main ? freeVariantId(headerId, candidates) : headerId;
      let done = 0;
      const chunks = async function* () {
        done = head.length;
        ctx.onBytes?.(done, name);
        yield head;
        for await (const c of blobChunks(blob, head.length, CHUNK_SIZE, signal)) {
          done += c.length;
          ctx.onBytes?.(done, name);
          yield c;
        }
      };
      let refs: Set<string> | undefined;
      let first: Problem | null = null;
      // The envelope index is built from the same bytes as they are written (no second read of the file).
      const indexed = indexNewSession(store, chunks());
      const created = await store.create(id, indexed.chunks, {
        variantOf: main ? headerId : undefined,
        signal,
        conversion,
        onScan: (s) => {
          refs = s.blobRefs;
          first = s.digest.firstProblem;
        },
      });
      await indexed.save(id);
      // Kept with problems: the report names the first one and its line (the reader shows them all).
      const noted = first as Problem | null;
      const where = noted ? { reason: noted.message, line: noted.line } : {};
      return { ...item(name, main ? 'variant' : 'added', created), ...where, refs };
    },
    signal,
  );
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

/** The omp blob refs in a blob of text (a plain scan, no JSON parsing). */
export async function blobRefsIn(blob: Blob, signal?: AbortSignal): Promise<Set<string>> {
  const refs = new Set<string>();
  const decoder = new TextDecoder();
  let carry = '';
  for await (const chunk of blobChunks(blob, 0, CHUNK_SIZE, signal)) {
    const text = carry + decoder.decode(chunk, { stream: true });
    for (const m of text.matchAll(BLOB_REF)) refs.add(m[1]);
    carry = text.slice(-90);
  }
  return refs;
}

/** sha256 of bytes, lowercase hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** One file as the page sent it. */
export interface IncomingFile {
  path: string;
  file: Blob;
}

interface PendingBlob {
  name: string;
  hash: string;
  blob: Blob;
  fromBundle: boolean;
}

/**
 * Imports files, folders (as path + file lists) and bundles. Sessions first; then the omp image
 * blobs that the imported sessions refer to (all of a bundle's blobs, which it carries for that).
 */
export async function importAll(files: IncomingFile[], ctx: ImportContext): Promise<ImportReport> {
  const items: ImportItem[] = [];
  const refs = new Set<string>();
  const blobs: PendingBlob[] = [];

  const visit = async (name: string, blob: Blob, depth: number, fromBundle: boolean): Promise<void> => {
    ctx.signal?.throwIfAborted();
    const hash = blobPathHash(name);
    if (hash) {
      // Blobs go last, once we know which ones the sessions refer to; bundle blobs are spooled and
      // released as the zip moves on, so keep their bytes (images are small) for the end.
      blobs.push({ name, hash, fromBundle, blob: fromBundle ? new Blob([await blob.arrayBuffer()]) : blob });
      return;
    }
    const head = new Uint8Array(await blob.slice(0, 4).arrayBuffer());
    const kind = sniff(head);
    if (kind !== 'text' && depth >= NESTING_LIMIT) {
      items.push({ name, outcome: 'rejected', reason: 'an archive nested too deeply' });
      return;
    }
    if (kind === 'gzip' || kind === 'zstd') {
      let spooled: Awaited<ReturnType<SessionStore['spool']>>;
      try {
        spooled = await ctx.store.spool(kind === 'gzip' ? gunzip(blob, ctx.signal) : unzstd(blob, ctx.signal), ctx.signal);
      } catch (e) {
        if (isAbortOrQuota(e)) throw e;
        items.push({ name, outcome: 'rejected', reason: `not a readable ${kind} file (${(e as Error).message})` });
        return;
      }
      try {
        await visit(name.replace(kind === 'gzip' ? /\.gz$/i : /\.zst$/i, ''), spooled.blob, depth + 1, fromBundle);
      } finally {
        await spooled.release();
      }
      return;
    }
    if (kind === 'zip') {
      try {
        await eachZipEntry(blob, ctx.store, (entry, entryBlob) => visit(`${name}/${entry}`, entryBlob, depth + 1, true), ctx.signal);
      } catch (e) {
        if (isAbortOrQuota(e)) throw e;
        items.push({ name, outcome: 'rejected', reason: `not a readable zip file (${(e as Error).message})` });
      }
      return;
    }
    const { refs: scanned, title, ...rest } = await importSessionBlob(name, blob, fileCtx);
    // A bundle's entries are long paths: its report names each session by its title too.
    const result: ImportItem = fromBundle && title ? { ...rest, title } : rest;
    items.push(result);
    if (result.outcome !== 'rejected') for (const r of scanned ?? (await blobRefsIn(blob, ctx.signal))) refs.add(r);
  };

  // Progress in bytes of the files as sent (a gzip or zip counts its compressed size).
  let base = 0;
  let fileCtx: ImportContext = ctx;
  for (const f of files) {
    fileCtx = { ...ctx, onBytes: (n, label) => ctx.onBytes?.(base + Math.min(n, f.file.size), label) };
    try {
      await visit(f.path, f.file, 0, false);
    } catch (e) {
      if ((e as { name?: string })?.name !== 'QuotaExceededError') throw e;
      // A full device: name the file that did not fit and say what was kept before it.
      const kept = items.filter((i) => i.outcome === 'added' || i.outcome === 'updated' || i.outcome === 'variant').length;
      throw new ApiFailure(
        'quota-exceeded',
        `No room left on this device for ${f.path}: it was not stored.${kept ? ` The ${kept} file${kept === 1 ? '' : 's'} imported before it ${kept === 1 ? 'was' : 'were'} kept.` : ''} Sessions stored earlier are unchanged.`,
        f.path,
      );
    }
    base += f.file.size;
    ctx.onBytes?.(base, f.path);
  }

  // Subagent transcripts beside their parents (omp and pi layouts) become the parents' children.
  const stored = items.filter((i) => i.id && i.outcome !== 'rejected').map((i) => ({ path: i.name, id: i.id as string }));
  const parents = await linkSubagents(ctx.store, stored, ctx.signal);
  for (const i of items) if (i.id && parents.has(i.id)) i.parentOf = parents.get(i.id);

  for (const b of blobs) {
    if (!b.fromBundle && !refs.has(b.hash)) continue;
    if (await ctx.store.hasBlob(b.hash)) continue;
    const bytes = new Uint8Array(await b.blob.arrayBuffer());
    // The name is only a claim: a blob is stored under the hash of its bytes, or not at all.
    if ((await sha256Hex(bytes)) !== b.hash) {
      items.push({ name: b.name, outcome: 'rejected', reason: 'image blob whose bytes do not match its sha256 name' });
      continue;
    }
    await ctx.store.writeBlob(b.hash, bytes);
  }
  return { items };
}

function isAbortOrQuota(e: unknown): boolean {
  const name = (e as { name?: string })?.name;
  return name === 'AbortError' || name === 'QuotaExceededError';
}
