// One streaming pass over a session file: what the index keeps about it (title, counts, model,
// totals, problems) and a slim tree to append to, with memory bounded by the number of entries,
// not the size of the file (a 200 MB session full of images must not need 1 GB).
import {
  branch,
  checkTree,
  CURRENT_SESSION_VERSION,
  displayTitle,
  entryProblem,
  isHeader,
  isTitleSlot,
  leaves,
  model,
  text,
  totals,
  v1Id,
  versionOf,
  type Entry,
  type Header,
  type ParsedSession,
  type Problem,
  type TitleSlot,
  type TreeLike,
} from '../core/index.ts';
import { decodeLine, isBlank, parseLine } from '../core/jsonl.ts';
import { looksLikeTitleSlot } from '../core/title-slot.ts';
import type { ByteChunks, SummaryTotals } from './types.ts';

/** What the index needs from a file's content (the rest of a SessionSummary is about the file). */
export interface SessionDigest {
  isSession: boolean;
  header: Header | null;
  title: string | null;
  firstMessage: string | null;
  cwd: string;
  created: string;
  entryCount: number;
  branchCount: number;
  model: string | null;
  totals: SummaryTotals;
  problems: number;
  /** The first problem, for an import report's reason and line. */
  firstProblem: Problem | null;
}

/** A digest plus the slim tree (envelopes and the fields the summary reads) and the omp blob refs. */
export interface SessionScan {
  digest: SessionDigest;
  /** Enough of the parsed session for core `append`: envelopes, id index, leaf, version, line count. */
  tree: TreeLike & { header: Header | null; titleSlot: TitleSlot | null; version: number; lineCount: number };
  /** sha256 (hex) of every `blob:sha256:` image reference in the file. */
  blobRefs: Set<string>;
}

const BLOB_REF = /blob:sha256:([0-9a-f]{64})/g;
const FIRST_MESSAGE_MAX = 200;

/** The envelope and the few fields the summary and the writer look at; the rest is dropped. */
function slim(value: Record<string, unknown>): Entry {
  const e: Entry = { type: String(value.type) };
  if ('id' in value) e.id = value.id as string;
  if ('parentId' in value) e.parentId = value.parentId as string | null;
  switch (value.type) {
    case 'message': {
      const m = value.message as Record<string, unknown> | undefined;
      if (m && typeof m === 'object') e.message = { role: m.role, provider: m.provider, model: m.model, usage: m.usage };
      break;
    }
    case 'model_change':
      for (const k of ['model', 'provider', 'modelId', 'role']) if (k in value) e[k] = value[k];
      break;
    case 'title_change':
      e.title = value.title;
      break;
    case 'session_info':
      e.name = value.name;
      break;
  }
  return e;
}

/** Scans a session file chunk by chunk. Never throws on bad content: problems are counted. */
export async function scanSession(chunks: ByteChunks, opts: { validate?: boolean } = {}): Promise<SessionScan> {
  const scanner = createScanner(opts);
  for await (const chunk of chunks) scanner.push(chunk);
  return scanner.finish();
}

/** A push-style scanner (for feeding the same chunks that are being written). */
export function createScanner(opts: { validate?: boolean } = {}) {
  const validate = opts.validate !== false;
  // Bytes of the line not yet ended by "\n" (split on bytes, then decoded line by line as the core
  // does, so an invalid UTF-8 sequence is reported on its own line).
  let carry: Uint8Array[] = [];
  let line = 0;
  let header: Header | null = null;
  let headerLine = 0;
  let titleSlot: TitleSlot | null = null;
  let firstObjectLine = 0;
  let version = CURRENT_SESSION_VERSION;
  let firstMessage: string | null = null;
  let lastV1Id: string | null = null;
  const v1Ids: string[] = [];
  const entries: Entry[] = [];
  const entryLines: number[] = [];
  const problems: Problem[] = [];
  const blobRefs = new Set<string>();

  const onLine = (bytes: Uint8Array, terminated: boolean) => {
    line++;
    const { text: s, invalidUtf8 } = decodeLine(bytes, 0, bytes.length);
    if (isBlank(s)) return;
    if (invalidUtf8) problems.push({ line, code: 'invalid-utf8', message: 'line is not valid UTF-8; bad bytes read as U+FFFD', severity: 'warning' });
    const value = parseLine(s, line, terminated, problems);
    if (value === null) return;
    if (line === 1 && value.type === 'title') {
      if (isTitleSlot(value)) return void (titleSlot = value);
      if (looksLikeTitleSlot(value)) problems.push({ line, code: 'title-slot', message: 'first line looks like an omp title slot but is not a valid one; read as an entry', severity: 'warning' });
    }
    if (firstObjectLine === 0) firstObjectLine = line;
    if (value.type === 'session') {
      if (header === null && isHeader(value)) {
        header = value;
        headerLine = line;
        version = versionOf(value);
      } else if (header !== null) {
        problems.push({ line, code: 'header-not-first', message: `another session header (the first is on line ${headerLine}); ignored`, severity: 'error' });
      }
      return;
    }
    if (s.includes('blob:sha256:')) for (const m of s.matchAll(BLOB_REF)) blobRefs.add(m[1]);
    migrateOne(value);
    if (validate) {
      const bad = entryProblem(value, line);
      if (bad) problems.push(bad);
    }
    if (firstMessage === null && value.type === 'message') {
      const m = value.message as { role?: unknown } | undefined;
      if (m?.role === 'user') firstMessage = clipText(text(m));
    }
    entries.push(slim(value));
    entryLines.push(line);
  };

  // The in-memory migration of §5, one entry at a time (the header, which says the version, comes first).
  const migrateOne = (value: Record<string, unknown>) => {
    if (header !== null && version < 2) {
      const id = v1Id(line);
      value.id = id;
      value.parentId = lastV1Id;
      lastV1Id = id;
      v1Ids.push(id);
      if (value.type === 'compaction' && typeof value.firstKeptEntryIndex === 'number') {
        const target = v1Ids[value.firstKeptEntryIndex - 1];
        if (target) value.firstKeptEntryId = target;
        delete value.firstKeptEntryIndex;
      }
    }
    if (header !== null && version < 3 && value.type === 'message') {
      const m = value.message as { role?: unknown } | undefined;
      if (m && typeof m === 'object' && m.role === 'hookMessage') value.message = { ...m, role: 'custom' };
    }
    if (value.id !== undefined && typeof value.id !== 'string') {
      problems.push({ line, code: 'invalid-entry', message: 'id is not a string; entry kept without an id', severity: 'warning' });
      delete value.id;
    }
    if (value.parentId !== undefined && value.parentId !== null && typeof value.parentId !== 'string') {
      problems.push({ line, code: 'invalid-entry', message: 'parentId is not a string; entry read as a root', severity: 'warning' });
      value.parentId = null;
    }
  };

  const joinCarry = (last: Uint8Array): Uint8Array => {
    if (carry.length === 0) return last;
    const parts = [...carry, last];
    carry = [];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };

  return {
    /** Feeds the next chunk of the file. */
    push(chunk: Uint8Array) {
      let from = 0;
      for (;;) {
        const nl = chunk.indexOf(10, from);
        if (nl < 0) break;
        onLine(joinCarry(chunk.subarray(from, nl)), true);
        from = nl + 1;
      }
      // A copy: the caller may reuse its chunk once push returns.
      if (from < chunk.length) carry.push(chunk.slice(from));
    },
    /** Ends the file and computes the digest. */
    finish(): SessionScan {
      if (carry.length) onLine(joinCarry(new Uint8Array(0)), false);
      const last = line;
      const found = header as Header | null;
      if (found === null) {
        problems.push({ line: firstObjectLine || 1, code: 'no-header', message: 'no session header (a first record with type "session" and a string id): not a session file', severity: 'error' });
      } else if (headerLine !== firstObjectLine) {
        problems.push({ line: headerLine, code: 'header-not-first', message: `the session header is on line ${headerLine}, after other records`, severity: 'error' });
      }
      const slot = titleSlot as TitleSlot | null;
      if (found && slot) {
        if (slot.title !== '') found.title = slot.title;
        else delete found.title;
      }
      if (version > CURRENT_SESSION_VERSION) {
        problems.push({ line: headerLine, code: 'future-version', message: `version ${version} is newer than ${CURRENT_SESSION_VERSION}`, severity: 'warning' });
      }
      const check = checkTree({ ids: entries.map((e) => e.id), parentIds: entries.map((e) => e.parentId), lines: entryLines });
      problems.push(...check.problems);
      problems.sort((a, b) => a.line - b.line);
      const byId = new Map<string, Entry>();
      for (const [id, i] of check.indexById) byId.set(id, entries[i]);
      const tree = {
        entries,
        entryLines,
        byId,
        indexById: check.indexById,
        leafId: check.leafIndex < 0 ? null : (entries[check.leafIndex].id as string),
        header: found,
        titleSlot: slot,
        version,
        lineCount: last,
      };
      const active = branch(tree);
      const digest: SessionDigest = {
        isSession: found !== null,
        header: found,
        title: displayTitle(tree as unknown as Pick<ParsedSession, 'header' | 'titleSlot' | 'entries'>),
        firstMessage,
        cwd: typeof found?.cwd === 'string' ? found.cwd : '',
        created: typeof found?.timestamp === 'string' ? found.timestamp : '',
        entryCount: entries.length,
        branchCount: leaves(tree).length,
        model: model(active),
        totals: totals(active),
        problems: problems.length,
        firstProblem: problems.find((p) => p.severity === 'error') ?? problems[0] ?? null,
      };
      return { digest, tree, blobRefs };
    },
  };
}

function clipText(s: string): string | null {
  // Only the start is shown: flattening a 50 MB first message whole took seconds.
  const flat = s.slice(0, FIRST_MESSAGE_MAX * 8).replace(/\s+/g, ' ').trim();
  if (flat === '') return null;
  const points = Array.from(flat.slice(0, FIRST_MESSAGE_MAX * 2));
  return points.length > FIRST_MESSAGE_MAX ? points.slice(0, FIRST_MESSAGE_MAX).join('') + '…' : points.join('');
}
