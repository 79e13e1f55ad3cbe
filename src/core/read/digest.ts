// What the library keeps about a session (title, counts, model, totals, usage, problems) and a
// slim tree to append to, from the one line pass (line-pass.ts) over its bytes as they stream: the
// same reading as `parse`, with a slim copy of each entry kept instead of the entry, so a 200 MB
// session full of images needs memory for its entries' envelopes, not for its bytes.
import { addAgentMark, type Agent, agentMark } from '../write/agent.ts';
import type { Conversion } from '../formats/types.ts';
import { createUsageCollector, type UsageDigest } from '../library-usage/index.ts';
import { model } from '../write/model-spec.ts';
import { text } from '../tree/readers.ts';
import { recordStream } from './record-stream.ts';
import { createSessionDate } from '../tree/session-date.ts';
import { displayTitle, metadataTitle } from '../tree/title.ts';
import { branch, leaves, type TreeLike } from '../tree/tree.ts';
import type { Entry, Header, ParsedSession, Problem, TitleSlot } from '../schema/types.ts';
import { totals } from '../tree/usage.ts';
import { type LinePass, linePass } from './line-pass.ts';

/** Token, output-token and cost sums over a session's active branch (core `totals`). */
export interface SummaryTotals {
  tokens: number;
  output: number;
  cost: number;
}

/** What the library's index keeps of a file's content (the rest of its record is about the file). */
export interface SessionDigest {
  isSession: boolean;
  header: Header | null;
  title: string | null;
  firstMessage: string | null;
  cwd: string;
  created: string;
  /** The session's date in ms (tree/session-date.ts: its latest entry but labels and names), 0 when unknown. */
  date: number;
  entryCount: number;
  branchCount: number;
  model: string | null;
  totals: SummaryTotals;
  /** Usage per 15-minute slice and model, on and off the active branch (the Usage screen's data). */
  usage: UsageDigest;
  problems: number;
  /** The first problem, for an import report's reason and line. */
  firstProblem: Problem | null;
  /** The agent that wrote the file, when its records say (`agentMark`), or the other agent it was converted from. */
  agent: Agent | null;
}

/** Enough of a read session for `append`: envelopes, id index, leaf, version, line count. */
export type SlimTree = TreeLike & { header: Header | null; titleSlot: TitleSlot | null; version: number; lineCount: number; headerLine: number };

/** A digest plus the slim tree (envelopes and the fields the digest reads) and the omp blob refs. */
export interface SessionScan {
  digest: SessionDigest;
  tree: SlimTree;
  /** sha256 (hex) of every `blob:sha256:` image reference in the file. */
  blobRefs: Set<string>;
}

/** What a digest is told as it reads. */
export interface DigestOptions {
  /** Each record as the file holds it (before migration), e.g. for a search index built on the way. */
  onValue?: (value: Record<string, unknown>) => void;
  /**
   * Each record with its line and byte range (end without the "\n"), before the pass reads it (e.g.
   * for an envelope index built on the way); `clean`: no problem was found in the file since the
   * record before it (its line's framing and UTF-8 included).
   */
  onRecordAt?: (value: Record<string, unknown>, line: number, start: number, end: number, clean: boolean) => void;
  /** A cost of 0 means "not recorded" (another agent's conversion: Claude Code and Codex store no prices). */
  zeroCostUnrecorded?: boolean;
}

/** Bytes of a session pushed in order; `finish` gives its scan. Chunks may be reused once `push` returns. */
export interface SessionDigester {
  push(chunk: Uint8Array): void;
  finish(): SessionScan;
}

const BLOB_REF = /blob:sha256:([0-9a-f]{64})/g;
const FIRST_MESSAGE_MAX = 200;

/** The envelope and the few fields the digest and the writer look at; the rest is dropped. */
function slim(value: Entry): Entry {
  const e: Entry = { type: String(value.type) };
  if ('id' in value) e.id = value.id;
  if ('parentId' in value) e.parentId = value.parentId;
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

/** Digests a session from its bytes as they are read. Never throws on bad content: problems are counted. */
/** The first user message of entries seen in order, else what names a session without messages (a Claude Code metadata record's facts). */
export function firstMessageReader() {
  let firstMessage: string | null = null;
  let metaTitle: string | null = null;
  return {
    see(entry: Entry) {
      if (firstMessage === null && entry.type === 'message') {
        const m = entry.message as { role?: unknown } | undefined;
        if (m?.role === 'user') firstMessage = clipText(text(m));
      }
      if (metaTitle === null && entry.type === 'custom') metaTitle = metadataTitle(entry);
    },
    found: () => firstMessage ?? metaTitle,
  };
}

export function createDigester(opts: DigestOptions = {}): SessionDigester {
  const first = firstMessageReader();
  let agent: Agent | null = null;
  const blobRefs = new Set<string>();
  const usage = createUsageCollector({ zeroCostUnrecorded: opts.zeroCostUnrecorded });
  const dates = createSessionDate();
  const pass: LinePass = linePass({
    // The digest keeps the number of problems and the first (the first error, else the first of all).
    firstEntryDetailOnly: true,
    onRecord(value, kind, s) {
      opts.onValue?.(value);
      if (kind === 'title') agent = 'omp';
      else if (kind === 'header') {
        // Only the header the file is read by (a later one is ignored, with a problem).
        if (pass.header() !== value) return;
        agent = addAgentMark(agent, agentMark(value, 'header'));
        usage.header(value);
        dates.header(value);
      } else {
        // Each hash copied out: a slice would keep the whole decoded run of lines it was cut from alive.
        if (s.includes('blob:sha256:')) for (const m of s.matchAll(BLOB_REF)) blobRefs.add(m[1].split('').join(''));
        // Before migration: the marks are what the writer put in the line.
        agent = addAgentMark(agent, agentMark(value, 'entry'));
      }
    },
    onEntry(entry, index) {
      first.see(entry);
      usage.add(entry, index);
      dates.entry(entry);
      return slim(entry);
    },
  });
  const at = opts.onRecordAt;
  let seen = 0;
  const stream = recordStream(
    pass.problems,
    at
      ? (value, line, start, end, text) => {
          at(value, line, start, end, pass.problems.length === seen);
          pass.visit(value, line, start, end, text);
          seen = pass.problems.length;
        }
      : pass.visit,
  );
  return {
    push: (chunk) => stream.push(chunk),
    finish(): SessionScan {
      const r = pass.finish(stream.end());
      const tree: SlimTree = {
        entries: r.entries,
        entryLines: r.entryLines,
        byId: r.byId,
        indexById: r.indexById,
        leafId: r.leafId,
        header: r.header,
        titleSlot: r.titleSlot,
        version: r.version,
        lineCount: r.lineCount,
        headerLine: r.headerLine,
      };
      const digest = digestOf(tree, usage, {
        firstMessage: first.found(),
        date: dates.date(),
        problems: r.problems.length,
        firstProblem: r.problems.find((p) => p.severity === 'error') ?? r.problems[0] ?? null,
        agent,
      });
      return { digest, tree, blobRefs };
    },
  };
}

/** What a digest reads of a tree: its envelopes and entries, header and title slot. */
export type HeldTree = TreeLike & Pick<SlimTree, 'header' | 'titleSlot'>;
export type UsageCollector = ReturnType<typeof createUsageCollector>;
export type DigestFacts = Pick<SessionDigest, 'firstMessage' | 'date' | 'problems' | 'firstProblem' | 'agent'>;

/** What a digest reads of the active branch and the entries (held-digest.ts keeps them as entries are appended). */
export interface BranchFacts {
  title: string | null;
  onBranch: ReadonlySet<Entry>;
  branchCount: number;
  model: string | null;
  totals: SummaryTotals;
}

/** The branch facts of a read tree, read through. */
export function branchFacts(tree: HeldTree): BranchFacts {
  const active = branch(tree);
  return {
    title: displayTitle(tree as unknown as Pick<ParsedSession, 'header' | 'titleSlot' | 'entries'>),
    onBranch: new Set(active),
    branchCount: leaves(tree).length,
    model: model(active),
    totals: totals(active),
  };
}

/** The digest of a read tree, from what the reading gathered: its usage rows and the facts only its records tell (`held`: its branch facts, when kept). */
export function digestOf(tree: HeldTree, usage: UsageCollector, facts: DigestFacts, held: BranchFacts = branchFacts(tree)): SessionDigest {
  const { onBranch } = held;
  const found = tree.header;
  return {
    isSession: found !== null,
    header: found,
    title: held.title,
    firstMessage: facts.firstMessage,
    cwd: typeof found?.cwd === 'string' ? found.cwd : '',
    created: typeof found?.timestamp === 'string' ? found.timestamp : '',
    date: facts.date,
    entryCount: tree.entries.length,
    branchCount: held.branchCount,
    model: held.model,
    totals: { ...held.totals },
    usage: usage.finish((i) => onBranch.has(tree.entries[i]), facts.agent ?? 'pi'),
    problems: facts.problems,
    firstProblem: facts.firstProblem,
    agent: facts.agent,
  };
}

/**
 * The digest a scan of a session's file would give, from the session held in memory (read, then
 * appended to with `added`, the entries as they were written): no byte of the file is read. What
 * only the file's records tell (problems, the agent's marks) comes from `known`, its last scan.
 */
export function digestHeld(tree: HeldTree, known: Pick<SessionDigest, 'problems' | 'agent'>, added: readonly Entry[]): SessionDigest {
  const usage = createUsageCollector();
  usage.header(tree.header);
  const first = firstMessageReader();
  const dates = createSessionDate();
  if (tree.header) dates.header(tree.header);
  tree.entries.forEach((entry, i) => {
    first.see(entry);
    usage.add(entry, i);
    dates.entry(entry);
  });
  let agent = known.agent;
  for (const entry of added) agent = addAgentMark(agent, agentMark(entry, 'entry'));
  return digestOf(tree, usage, { firstMessage: first.found(), date: dates.date(), problems: known.problems, firstProblem: null, agent });
}

/** The digest of a whole session's bytes, given in chunks. */
export async function digestSession(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, opts: DigestOptions = {}): Promise<SessionScan> {
  const d = createDigester(opts);
  for await (const chunk of chunks) d.push(chunk);
  return d.finish();
}

/**
 * The scan of another agent's file through its pi conversion (formats/): problems are the
 * adapter's (source lines) and then the conversion's own; the agent is the source's; a cost of 0
 * is "not recorded".
 */
export function digestConversion(conversion: Conversion, onValue?: (value: Record<string, unknown>) => void): SessionScan {
  const d = createDigester({ onValue, zeroCostUnrecorded: true });
  d.push(conversion.bytes);
  const scan = d.finish();
  const own = scan.digest;
  const problems = conversion.problems.length + own.problems;
  const firstProblem = conversion.problems.find((p) => p.severity === 'error') ?? conversion.problems[0] ?? own.firstProblem;
  own.usage.agent = conversion.format;
  return { ...scan, digest: { ...own, agent: conversion.format, problems, firstProblem } };
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
