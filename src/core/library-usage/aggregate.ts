// Usage across the library, from index records only (never the files): the digests' buckets are
// grouped into the user's local days (the caller's `dayOf`, so the page's time zone decides) and
// summed per day, model, project, agent and session. A subagent's usage counts in its parent's
// session and project (`parentOf`, followed to the top, cycles ignored); a variant's in its original's project.
import {
  B_CACHE_READ,
  B_CACHE_WRITE,
  B_CALLS,
  B_COST,
  B_COSTED,
  B_ERRORS,
  B_INPUT,
  B_MODEL,
  B_OUTPUT,
  B_SLICE,
  B_TOKENS,
  B_TURNS,
  type UsageAgent,
  type UsageDigest,
} from './digest.ts';
import { costRecordedFor } from '../tree/usage.ts';
import { projectsOf, topsAlong } from './projects.ts';

/** What aggregation reads from an index record (the storage summary has these fields). */
export interface UsageRecord {
  id: string;
  title: string | null;
  firstMessage?: string | null;
  cwd: string;
  usage?: UsageDigest;
  /** Store id of the session this one is a subagent of (set when transcripts are linked). */
  parentOf?: string;
  /** Store id of the session this one is a variant of (its usage counts in that one's project). */
  variantOf?: string;
}

/** Which entries count: the active branch of each session, or every branch in the file. */
export type UsageScope = 'branch' | 'all';

/** Sums of usage. `cost` is only what was recorded; `costedTurns` says for how many turns. */
export interface UsageSums {
  turns: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  tokens: number;
  cost: number;
  costedTurns: number;
  toolCalls: number;
  toolErrors: number;
}

/** One line of the finest grain: a local day × owning session × model (CSV rows). */
export interface UsageRow extends UsageSums {
  /** Local day `YYYY-MM-DD`, or '' when no time is known. */
  day: string;
  /** The session the usage counts in (a subagent's top parent). */
  session: string;
  /** The session whose file holds the entries (differs from `session` for a subagent). */
  source: string;
  model: string;
  agent: UsageAgent;
  project: string;
}

/** Options of an aggregation. */
export interface UsageOptions {
  scope: UsageScope;
  /** The local day (`YYYY-MM-DD`) of a 15-minute slice (ms since epoch / SLICE_MS). */
  dayOf(slice: number): string;
  /** First and last local day included (inclusive); undated usage counts only without a range. */
  from?: string;
  to?: string;
}

/** Zeroed sums. */
export function emptySums(): UsageSums {
  return { turns: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, tokens: 0, cost: 0, costedTurns: 0, toolCalls: 0, toolErrors: 0 };
}

/** Adds `b` into `a`. */
export function addSums(a: UsageSums, b: UsageSums): UsageSums {
  a.turns += b.turns;
  a.input += b.input;
  a.output += b.output;
  a.cacheRead += b.cacheRead;
  a.cacheWrite += b.cacheWrite;
  a.tokens += b.tokens;
  a.cost += b.cost;
  a.costedTurns += b.costedTurns;
  a.toolCalls += b.toolCalls;
  a.toolErrors += b.toolErrors;
  return a;
}

/** The top parent of each record (itself when it has none, or when its parent is not stored or loops). */
export function ownersOf(records: readonly UsageRecord[]): Map<string, UsageRecord> {
  return topsAlong(records, (r) => r.parentOf);
}

/** Every usage row (day × owning session × model × agent) in scope and range. */
export function usageRows(records: readonly UsageRecord[], opts: UsageOptions): UsageRow[] {
  const owners = ownersOf(records);
  const projects = projectsOf(records);
  const out: UsageRow[] = [];
  const ranged = opts.from !== undefined || opts.to !== undefined;
  // Slices repeat across sessions (and 96 share a day): one Date per distinct slice.
  const days = new Map<number, string>();
  // Rows of one record (its own file) never merge with another's: a small map per record.
  const rows = new Map<string, UsageRow>();
  for (const r of records) {
    const u = r.usage;
    if (!u) continue;
    const owner = owners.get(r.id) ?? r;
    rows.clear();
    const lists = opts.scope === 'branch' ? [u.branch] : [u.branch, u.other];
    for (const list of lists)
      for (const b of list) {
        let day = '';
        if (b[B_SLICE] >= 0) {
          const slice = u.start + b[B_SLICE];
          day = days.get(slice) ?? '';
          if (!day) days.set(slice, (day = opts.dayOf(slice)));
        }
        if (ranged && (day === '' || (opts.from !== undefined && day < opts.from) || (opts.to !== undefined && day > opts.to))) continue;
        const key = `${day} ${b[B_MODEL]}`;
        let row = rows.get(key);
        if (!row) {
          row = {
            day,
            session: owner.id,
            source: r.id,
            model: u.models[b[B_MODEL]] ?? 'unknown model',
            agent: u.agent,
            project: projects.get(owner.id) ?? owner.cwd,
            turns: 0,
            input: 0,
            output: 0,
            cacheRead: 0,
            cacheWrite: 0,
            tokens: 0,
            cost: 0,
            costedTurns: 0,
            toolCalls: 0,
            toolErrors: 0,
          };
          rows.set(key, row);
          out.push(row);
        }
        row.turns += b[B_TURNS];
        row.input += b[B_INPUT];
        row.output += b[B_OUTPUT];
        row.cacheRead += b[B_CACHE_READ];
        row.cacheWrite += b[B_CACHE_WRITE];
        row.tokens += b[B_TOKENS];
        row.cost += b[B_COST];
        row.costedTurns += b[B_COSTED];
        row.toolCalls += b[B_CALLS];
        row.toolErrors += b[B_ERRORS];
      }
  }
  return out.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : b.cost - a.cost || b.tokens - a.tokens));
}

/** A group of rows (a model, a project, an agent, a session, a day) with its sums. */
export interface UsageGroup extends UsageSums {
  key: string;
  /** Distinct owning sessions in the group. */
  sessions: number;
}

/** The report the Usage screen draws. */
export interface UsageReport {
  total: UsageSums;
  sessions: number;
  days: Map<string, UsageGroup & { ids: string[] }>;
  models: UsageGroup[];
  projects: UsageGroup[];
  agents: UsageGroup[];
  /** Sessions (owners) by recorded cost, then tokens. */
  bySession: UsageGroup[];
  /** Usage without any time (counted in totals only when no range is set). */
  undated: UsageSums;
}

/** A group being summed, with the owning sessions seen in it (`ids`: null where the key is the session). */
interface Summing {
  group: UsageGroup;
  ids: Set<string> | null;
}

/** Sums rows into the report's groups (each group made once, its sessions counted as it fills). */
export function summarizeUsage(rows: readonly UsageRow[]): UsageReport {
  const total = emptySums();
  const undated = emptySums();
  const models = new Map<string, Summing>();
  const projects = new Map<string, Summing>();
  const agents = new Map<string, Summing>();
  const bySession = new Map<string, Summing>();
  const byDay = new Map<string, Summing>();
  const into = (map: Map<string, Summing>, key: string, row: UsageRow, ofSession: boolean) => {
    let s = map.get(key);
    if (!s) {
      const group: UsageGroup = { key, sessions: ofSession ? 1 : 0, ...emptySums() };
      map.set(key, (s = { group, ids: ofSession ? null : new Set() }));
    }
    addSums(s.group, row);
    if (s.ids && !s.ids.has(row.session)) {
      s.ids.add(row.session);
      s.group.sessions++;
    }
  };
  for (const row of rows) {
    addSums(total, row);
    if (row.day === '') addSums(undated, row);
    else into(byDay, row.day, row, false);
    into(models, row.model, row, false);
    into(projects, row.project, row, false);
    into(agents, row.agent, row, false);
    into(bySession, row.session, row, true);
  }
  const list = (map: Map<string, Summing>) => {
    const out: UsageGroup[] = [];
    for (const s of map.values()) out.push(s.group);
    return out.sort((a, b) => b.cost - a.cost || b.tokens - a.tokens || (a.key < b.key ? -1 : 1));
  };
  const days = new Map<string, UsageGroup & { ids: string[] }>();
  for (const [day, { group, ids }] of byDay) days.set(day, Object.assign(group, { ids: [...ids!] }));
  return {
    total,
    sessions: bySession.size,
    days,
    models: list(models),
    projects: list(projects),
    agents: list(agents),
    bySession: list(bySession),
    undated,
  };
}

/** Share of prompt tokens served from the cache: cacheRead / (input + cacheRead + cacheWrite); null without prompts. */
export function cacheHitRate(s: UsageSums): number | null {
  const prompt = s.input + s.cacheRead + s.cacheWrite;
  return prompt > 0 ? s.cacheRead / prompt : null;
}

/** Share of tool calls whose result was an error; null without calls. */
export function toolErrorRate(s: UsageSums): number | null {
  return s.toolCalls > 0 ? s.toolErrors / s.toolCalls : null;
}

/**
 * Whether a cost was recorded: 'all' turns, 'some', or 'none' (show "no price recorded", never $0).
 * A cost of 0 beside tokens is none (the rule of `costRecordedFor`).
 */
export function costRecorded(s: UsageSums): 'all' | 'some' | 'none' {
  if (s.costedTurns === 0 || !costRecordedFor(s.cost, s.tokens)) return 'none';
  return s.costedTurns >= s.turns ? 'all' : 'some';
}
