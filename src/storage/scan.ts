// One streaming pass over a session file: what the index keeps about it (title, counts, model,
// totals, problems) and a slim tree to append to, with memory bounded by the number of entries,
// not the size of the file (a 200 MB session full of images must not need 1 GB).
import {
  addAgentMark,
  agentMark,
  branch,
  checkEnvelope,
  checkTree,
  displayTitle,
  entryProblem,
  headerProblems,
  isHeader,
  isTitleSlot,
  leaves,
  migrateV1Entry,
  migrateV2Entry,
  model,
  text,
  totals,
  v1Id,
  versionOf,
  type Agent,
  createUsageCollector,
  type Entry,
  type Header,
  type ParsedSession,
  type Problem,
  type TitleSlot,
  type TreeLike,
  type UsageDigest,
} from '../core/index.ts';
import { EntryMap } from '../core/tree/entry-map.ts';
import { highWords } from '../core/read/ascii-line.ts';
import { decodeLine, isBlank, parseLine } from '../core/read/jsonl.ts';
import { forEachLineRun } from '../core/read/line-runs.ts';
import { problem } from '../core/read/problems.ts';
import { looksLikeTitleSlot } from '../core/read/title-slot.ts';
import { concatBytes } from './chunks.ts';
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
  /** Usage per 15-minute slice and model, on and off the active branch (the Usage screen's data). */
  usage: UsageDigest;
  problems: number;
  /** The first problem, for an import report's reason and line. */
  firstProblem: Problem | null;
  /** The agent that wrote the file, when its records say (core `agentMark`). */
  agent: Agent | null;
}

/** A digest plus the slim tree (envelopes and the fields the summary reads) and the omp blob refs. */
export interface SessionScan {
  digest: SessionDigest;
  /** Enough of the parsed session for core `append`: envelopes, id index, leaf, version, line count. */
  tree: TreeLike & { header: Header | null; titleSlot: TitleSlot | null; version: number; lineCount: number; headerLine: number };
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
export function createScanner(opts: { validate?: boolean; onValue?: (value: Record<string, unknown>) => void; zeroCostUnrecorded?: boolean } = {}) {
  const validate = opts.validate !== false;
  // Bytes of the unfinished last line (pieces, joined when its "\n" arrives).
  let carry: Uint8Array[] = [];
  let line = 0;
  let header: Header | null = null;
  let headerLine = 0;
  let titleSlot: TitleSlot | null = null;
  let firstObjectLine = 0;
  let version = versionOf(null);
  let firstMessage: string | null = null;
  let agent: Agent | null = null;
  const v1Ids: string[] = [];
  const entries: Entry[] = [];
  const entryLines: number[] = [];
  const ids: (string | undefined)[] = [];
  const parentIds: (string | null | undefined)[] = [];
  const problems: Problem[] = [];
  const blobRefs = new Set<string>();
  const usage = createUsageCollector({ zeroCostUnrecorded: opts.zeroCostUnrecorded });

  // One physical line, as the core's parse sees it (same problems, same migration, same checks).
  // A line's bytes on their own (one carried across chunks, or one holding non-ASCII).
  const onLine = (bytes: Uint8Array, terminated: boolean) => {
    const { text: s, invalidUtf8 } = decodeLine(bytes, 0, bytes.length);
    onText(s, invalidUtf8, terminated);
  };
  const onText = (s: string, invalidUtf8: boolean, terminated: boolean) => {
    line++;
    if (isBlank(s)) return;
    if (invalidUtf8) problems.push(problem(line, 'invalid-utf8', 'line is not valid UTF-8; bad bytes read as U+FFFD'));
    const value = parseLine(s, line, terminated, problems);
    if (value === null) return;
    // Before the migration below changes it: what the file holds (the search index reads this).
    opts.onValue?.(value);
    if (line === 1 && value.type === 'title') {
      if (isTitleSlot(value)) {
        agent = 'omp';
        return void (titleSlot = value);
      }
      if (looksLikeTitleSlot(value))
        problems.push(problem(line, 'title-slot', 'first line looks like an omp title slot but is not a valid one; read as an entry'));
    }
    if (firstObjectLine === 0) firstObjectLine = line;
    if (value.type === 'session') {
      if (header === null && isHeader(value)) {
        header = value;
        agent = addAgentMark(agent, agentMark(value, 'header'));
        usage.header(value);
        headerLine = line;
        version = versionOf(value);
      } else if (header !== null) {
        problems.push(problem(line, 'header-not-first', `another session header (the first is on line ${headerLine}); ignored`));
      }
      return;
    }
    // Each hash copied out: a slice would keep the whole decoded run of lines it was cut from alive.
    if (s.includes('blob:sha256:')) for (const m of s.matchAll(BLOB_REF)) blobRefs.add(m[1].split('').join(''));
    const entry = value as Entry;
    // Before migration: the marks are what the writer put in the line.
    agent = addAgentMark(agent, agentMark(entry, 'entry'));
    // The in-memory migration of §5, one entry at a time (the header, which says the version, comes first).
    if (header !== null && version < 2) {
      const id = v1Id(line);
      migrateV1Entry(entry, id, v1Ids.length ? v1Ids[v1Ids.length - 1] : null, (k) => v1Ids[k]);
      v1Ids.push(id);
    }
    if (header !== null && version < 3) migrateV2Entry(entry);
    if (typeof entry.id !== 'string' || (entry.parentId != null && typeof entry.parentId !== 'string')) {
      const fixed = checkEnvelope(entry.id, entry.parentId, line, problems);
      if (fixed.id === undefined) delete entry.id;
      if (fixed.parentId !== entry.parentId) entry.parentId = fixed.parentId;
    }
    if (validate) {
      const bad = entryProblem(entry, line);
      if (bad) problems.push(bad);
    }
    if (firstMessage === null && entry.type === 'message') {
      const m = entry.message as { role?: unknown } | undefined;
      if (m?.role === 'user') firstMessage = clipText(text(m));
    }
    usage.add(entry, entries.length);
    const slimmed = slim(entry);
    entries.push(slimmed);
    entryLines.push(line);
    ids.push(slimmed.id);
    parentIds.push(slimmed.parentId);
  };

  return {
    /** Feeds the next chunk of the file. */
    push(chunk: Uint8Array) {
      let pos = 0;
      if (carry.length) {
        const nl = chunk.indexOf(10);
        if (nl < 0) {
          // Copied: the caller may reuse its buffer for the next chunk.
          carry.push(chunk.slice());
          return;
        }
        carry.push(chunk.subarray(0, nl));
        const whole = concatBytes(carry);
        carry = [];
        onLine(whole, true);
        pos = nl + 1;
      }
      // The chunk's whole lines: ASCII ones decoded in runs, the others one by one as above.
      const last = chunk.lastIndexOf(10);
      if (last >= pos)
        forEachLineRun(
          chunk,
          highWords(chunk),
          pos,
          last,
          (text) => onText(text, false, true),
          (start, end) => onLine(chunk.subarray(start, end), true),
        );
      if (last + 1 > pos) pos = last + 1;
      if (pos < chunk.length) carry.push(chunk.slice(pos));
    },
    /** Ends the file and computes the digest. */
    finish(): SessionScan {
      if (carry.length) {
        const whole = concatBytes(carry);
        carry = [];
        onLine(whole, false);
      }
      const found = header as Header | null;
      problems.push(...headerProblems(found, headerLine, firstObjectLine));
      const slot = titleSlot as TitleSlot | null;
      if (found && slot) {
        if (slot.title !== '') found.title = slot.title;
        else delete found.title;
        if (slot.source !== undefined) found.titleSource = slot.source;
      }
      const check = checkTree({ ids, parentIds, lines: entryLines });
      problems.push(...check.problems);
      problems.sort((a, b) => a.line - b.line);
      const tree = {
        entries,
        entryLines,
        byId: new EntryMap(check.indexById, entries),
        indexById: check.indexById,
        leafId: check.leafIndex < 0 ? null : (entries[check.leafIndex].id as string),
        header: found,
        titleSlot: slot,
        version,
        lineCount: line,
        headerLine,
      };
      const active = branch(tree);
      const onBranch = new Set(active);
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
        usage: usage.finish((i) => onBranch.has(entries[i]), agent ?? 'pi'),
        problems: problems.length,
        firstProblem: problems.find((p) => p.severity === 'error') ?? problems[0] ?? null,
        agent,
      };
      return { digest, tree, blobRefs };
    },
  };
}

function clipText(s: string): string | null {
  // Only the start is shown: flattening a 50 MB first message whole took seconds.
  const flat = s
    .slice(0, FIRST_MESSAGE_MAX * 8)
    .replace(/\s+/g, ' ')
    .trim();
  if (flat === '') return null;
  const points = Array.from(flat.slice(0, FIRST_MESSAGE_MAX * 2));
  return points.length > FIRST_MESSAGE_MAX ? points.slice(0, FIRST_MESSAGE_MAX).join('') + '…' : points.join('');
}
