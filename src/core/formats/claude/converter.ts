// The Claude Code → pi conversion's state and its line handlers (claudeToPi in convert.ts drives it):
// each line's entries are made from it and the lines before it, in one pass in file order.
import { problem } from '../../read/problems.ts';
import type { Problem } from '../../schema/types.ts';
import { assistantParts, contentText, isObject, type Json, resultParts, userParts } from './content.ts';
import { IdAllocator } from './ids.ts';
import { inParentOrder } from './order.ts';
import { isoOf, type SourceLine } from './records.ts';
import { responseKey, usageByResponse } from './responses.ts';
import { type Region, Regions } from './tree.ts';
import { zeroUsage } from '../usage.ts';
import { piUsage, stopReason } from './usage.ts';

/** Keys every Claude line repeats; left out of the `data` of the pi entries that keep a line whole. */
const ENVELOPE = new Set([
  'type',
  'uuid',
  'parentUuid',
  'isSidechain',
  'timestamp',
  'userType',
  'entrypoint',
  'cwd',
  'sessionId',
  'version',
  'gitBranch',
  'slug',
]);
/** The tools whose calls start a subagent (a sidechain in old files). */
const STARTER = /^(Task|Agent)$/;

interface TaskCall {
  prompt: string;
  entryId: string;
  claimed: boolean;
}

export class Converter {
  readonly ids = new IdAllocator();
  readonly regions = new Regions();
  readonly out: Json[] = [];
  readonly problems: Problem[];
  readonly toolNames = new Map<string, string>();
  readonly tasks: TaskCall[] = [];
  readonly counted = new Set<string>();
  readonly usage: Map<string, Json>;
  /** The entry id of each pi assistant message (its region's tail moves on). */
  readonly entryOf = new WeakMap<Json, string>();
  /** Compactions whose summary line has been read. */
  readonly summarized = new WeakSet<Json>();
  clock: string;
  /** The pi id the active leaf (the last main-chain conversation line) ended at. */
  leafId: string | null = null;
  leafMain = false;
  /** Entries made from sidechain lines. */
  readonly side = new Set<Json>();
  private sidechain = false;
  /** The model of the last real response (for Claude's `<synthetic>` notes). */
  model: string | null = null;

  constructor(lines: readonly SourceLine[], problems: Problem[], started: string) {
    this.problems = problems;
    this.clock = started;
    this.usage = usageByResponse(lines);
  }

  private entry(type: string, seed: string, parentId: string | null, body: Json): Json {
    const e: Json = { type, id: this.ids.take(seed), parentId, timestamp: this.clock, ...body };
    this.out.push(e);
    if (this.sidechain) this.side.add(e);
    return e;
  }

  private custom(type: string, seed: string, parentId: string | null, body: Json): Json {
    const e: Json = { type, ...body, id: this.ids.take(seed), parentId, timestamp: this.clock };
    this.out.push(e);
    if (this.sidechain) this.side.add(e);
    return e;
  }

  /** Appends an entry after `region`'s tail and makes it the tail. */
  private chain(region: Region, make: (parentId: string | null) => Json): void {
    region.tail = make(region.tail).id as string;
  }

  private ms(): number {
    return Date.parse(this.clock);
  }

  /** Converts every line, each after its parent (see order.ts). */
  run(lines: readonly SourceLine[]): void {
    inParentOrder(
      lines,
      (r) => (typeof r.uuid === 'string' ? Converter.parentUuidOf(r) : undefined),
      (uuid) => this.regions.has(uuid),
      (l) => this.line(l),
    );
  }

  private line({ record: r, line }: SourceLine): void {
    this.clock = isoOf(r.timestamp) ?? this.clock;
    const uuid = typeof r.uuid === 'string' ? r.uuid : null;
    if (uuid === null) {
      this.sidechain = false;
      this.bookkeeping(r, line);
      return;
    }
    if (this.regions.has(uuid)) {
      this.problems.push(problem(line, 'duplicate-id', `uuid ${uuid} already appeared; this copy is skipped`));
      return;
    }
    const parent = this.parentRegion(r, line);
    const sidechain = r.isSidechain === true;
    this.sidechain = sidechain;
    let region: Region;
    if (r.type === 'assistant') region = this.assistant(r, uuid, parent, sidechain);
    else if (r.type === 'user') region = this.user(r, uuid, parent);
    else if (r.type === 'system' && r.subtype === 'compact_boundary') region = this.boundary(r, uuid, parent);
    else {
      region = this.regions.joinable(parent);
      this.chain(region, (p) => this.custom('custom', uuid, p, { customType: `claude-code:${String(r.type)}`, data: dataOf(r) }));
    }
    this.regions.set(uuid, region, sidechain);
    if (!sidechain || !this.leafMain) {
      this.leafId = region.tail;
      this.leafMain = !sidechain;
    }
  }

  /** The uuid a conversation line hangs from (a compaction's logical parent, else its parent). */
  private static parentUuidOf(r: Json): unknown {
    const compact = r.type === 'system' && r.subtype === 'compact_boundary';
    return compact && typeof r.logicalParentUuid === 'string' ? r.logicalParentUuid : r.parentUuid;
  }

  /**
   * The region a conversation line attaches to: its parent's; for a parent not in the file, the
   * assistant line that made the call a tool result answers (`sourceToolAssistantUUID`), or for a
   * compaction the conversation so far, else a root (pi's rule for a missing parent, §0.2.2); for a
   * sidechain's first prompt, the Task/Agent call that started it.
   */
  private parentRegion(r: Json, line: number): Region {
    const parentUuid = Converter.parentUuidOf(r);
    if (typeof parentUuid === 'string') {
      const region = this.regions.get(parentUuid);
      if (region) return region;
      const source = typeof r.sourceToolAssistantUUID === 'string' ? this.regions.get(r.sourceToolAssistantUUID) : undefined;
      const fallback = source ?? (startsTurn(r) ? undefined : this.regions.current());
      // Claude Code writes such lines as a matter of course (a compaction's logical parent and a
      // resume's hook lines name messages of the transcript before it): attached where they belong,
      // they lose nothing, so only a line read as a root (a new tree) is reported.
      if (!fallback) this.problems.push(problem(line, 'missing-parent', `parent ${parentUuid} is not in the file; read as a root`));
      return fallback ?? this.regions.root;
    }
    if (r.isSidechain === true && r.type === 'user') {
      const prompt = contentText(isObject(r.message) ? r.message.content : undefined);
      const call = findLast(this.tasks, (t) => !t.claimed && t.prompt === prompt) ?? findLast(this.tasks, (t) => t.prompt === prompt);
      if (call) {
        call.claimed = true;
        return { key: null, tail: call.entryId };
      }
    }
    return this.regions.root;
  }

  private assistant(r: Json, uuid: string, parent: Region, sidechain: boolean): Region {
    const m = isObject(r.message) ? r.message : {};
    const key = responseKey(r, uuid);
    let region: Region;
    let message: Json;
    if (parent.key === key && parent.message) {
      region = parent;
      message = parent.message;
    } else {
      const first = !this.counted.has(key);
      this.counted.add(key);
      message = {
        role: 'assistant',
        content: [],
        api: 'anthropic-messages',
        provider: 'anthropic',
        // Claude's own notes (API errors, "No response requested.") say `<synthetic>`: pi restores the model of the last assistant, so they carry the model that was in use.
        model: typeof m.model === 'string' && m.model !== '<synthetic>' ? m.model : (this.model ?? (typeof m.model === 'string' ? m.model : 'unknown')),
        usage: first ? piUsage(this.usage.get(key), r.costUSD) : zeroUsage(),
        stopReason: 'stop',
        timestamp: this.ms(),
      };
      if (typeof m.id === 'string') message.responseId = m.id;
      if (typeof m.model === 'string' && m.model !== '<synthetic>') this.model = m.model;
      const e = this.entry('message', uuid, parent.tail, { message });
      this.entryOf.set(message, e.id as string);
      region = this.regions.start(parent, { key, tail: e.id as string, message });
    }
    const content = message.content as Json[];
    if (r.isApiErrorMessage === true) {
      message.stopReason = 'error';
      message.errorMessage = contentText(m.content) || (typeof r.error === 'string' ? r.error : 'API error');
    } else {
      const from = content.length;
      assistantParts(m.content, content);
      for (const part of content.slice(from)) {
        if (part.type !== 'toolCall') continue;
        this.toolNames.set(part.id as string, part.name as string);
        const prompt = isObject(part.arguments) ? part.arguments.prompt : undefined;
        if (!sidechain && STARTER.test(part.name as string) && typeof prompt === 'string') {
          this.tasks.push({ prompt, entryId: this.entryOf.get(message) ?? String(region.tail), claimed: false });
        }
      }
      if (message.stopReason !== 'error')
        message.stopReason = stopReason(
          m.stop_reason,
          content.some((p) => p.type === 'toolCall'),
        );
    }
    return region;
  }

  private user(r: Json, uuid: string, parent: Region): Region {
    const m = isObject(r.message) ? r.message : {};
    const content = m.content;
    if (r.isCompactSummary === true) {
      const summary = contentText(content);
      if (parent.compaction && !this.summarized.has(parent.compaction)) {
        parent.compaction.summary = summary;
        this.summarized.add(parent.compaction);
        return parent;
      }
      const e = this.entry('compaction', uuid, parent.tail, { summary, firstKeptEntryId: '', tokensBefore: 0 });
      e.firstKeptEntryId = e.id;
      return this.regions.start(parent, { key: null, tail: e.id as string });
    }
    const blocks = Array.isArray(content) ? content : null;
    const results = blocks ? blocks.filter((b): b is Json => isObject(b) && b.type === 'tool_result') : [];
    const rest = blocks ? blocks.filter((b) => !(isObject(b) && b.type === 'tool_result')) : content;
    let region = parent;
    if (results.length) {
      region = this.regions.joinable(parent);
      results.forEach((b, i) => {
        const toolCallId = typeof b.tool_use_id === 'string' ? b.tool_use_id : '';
        const message: Json = { role: 'toolResult', toolCallId, toolName: this.toolNames.get(toolCallId) ?? 'unknown', content: resultParts(b.content) };
        if (i === 0 && r.toolUseResult !== undefined) message.details = r.toolUseResult;
        message.isError = b.is_error === true;
        message.timestamp = this.ms();
        this.chain(region, (p) => this.entry('message', i === 0 ? uuid : `${uuid}:${i}`, p, { message }));
      });
      if (Array.isArray(rest) && rest.length === 0) return region;
    }
    const piContent = typeof rest === 'string' ? rest : userParts(Array.isArray(rest) ? rest : []);
    const seed = results.length ? `${uuid}:text` : uuid;
    if (r.isMeta === true) {
      region = this.regions.joinable(region);
      this.chain(region, (p) => this.custom('custom_message', seed, p, { customType: 'claude-code:meta', content: piContent, display: false }));
      return region;
    }
    const e = this.entry('message', seed, region.tail, { message: { role: 'user', content: piContent, timestamp: this.ms() } });
    return this.regions.start(region, { key: null, tail: e.id as string });
  }

  private boundary(r: Json, uuid: string, parent: Region): Region {
    const meta = isObject(r.compactMetadata) ? r.compactMetadata : null;
    const tokensBefore = typeof meta?.preTokens === 'number' ? meta.preTokens : 0;
    const body: Json = { summary: typeof r.content === 'string' ? r.content : '', firstKeptEntryId: '', tokensBefore };
    if (meta) body.details = meta;
    const e = this.entry('compaction', uuid, parent.tail, body);
    // Claude keeps nothing before its boundary: an id not on the path before the compaction (its own) keeps nothing in pi too.
    e.firstKeptEntryId = e.id;
    return this.regions.start(parent, { key: null, tail: e.id as string, compaction: e });
  }

  /** A line without a uuid: a title (`summary`, `custom-title`) as pi's session_info, anything else kept as a custom entry. */
  private bookkeeping(r: Json, line: number): void {
    const region = this.regions.current();
    const seed = `line:${line}`;
    const name = r.type === 'summary' ? r.summary : r.type === 'custom-title' ? r.customTitle : undefined;
    if (typeof name === 'string') this.chain(region, (p) => this.entry('session_info', seed, p, { name: name.trim() }));
    else
      this.chain(region, (p) => this.custom('custom', seed, p, { customType: `claude-code:${typeof r.type === 'string' ? r.type : 'line'}`, data: dataOf(r) }));
    if (region === this.regions.root || this.leafId === null) return;
    this.leafId = region.tail;
  }
}

/** True for the lines that start a turn (a prompt, an API response): a missing parent makes them a root, as in pi. */
function startsTurn(r: Json): boolean {
  if (r.type === 'assistant') return true;
  if (r.type !== 'user' || r.isMeta === true || r.isCompactSummary === true) return false;
  const content = isObject(r.message) ? r.message.content : undefined;
  return !Array.isArray(content) || content.some((b) => !(isObject(b) && b.type === 'tool_result'));
}

function dataOf(r: Json): Json {
  const data: Json = {};
  for (const k of Object.keys(r)) if (!ENVELOPE.has(k)) data[k] = r[k];
  return data;
}

function findLast<T>(items: readonly T[], test: (t: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return items[i];
  return undefined;
}
