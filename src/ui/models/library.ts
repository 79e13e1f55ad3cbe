import { computed, signal } from '@preact/signals';
import { describeError, isMissingMethod, library, type SessionSummary } from './calls.ts';
import { displayTitle } from './format.ts';
import { projectsOf } from '../../core/library-usage/projects.ts';
import { showToast } from './toasts.ts';
import { refreshStorage } from './storage.ts';
import { search } from './search.ts';
import { coalesced, idsOf, keepUnchanged, mergeChanges, mergeKnown, unknownIds } from './summaries.ts';
import { arrivalGate, arriving } from './arrivals.ts';
import { nextTask } from '../idle.ts';

/** How the list is ordered. */
export type SortKey = 'created' | 'modified' | 'size' | 'cost' | 'title';

/** One project (cwd) and its sessions, in list order. */
export interface ProjectGroup {
  cwd: string;
  sessions: SessionSummary[];
}

/** Every stored session, newest first (as the worker lists them). */
export const sessions = signal<SessionSummary[]>([]);
/** False until the first list arrives (so the empty state does not flash). */
export const loaded = signal(false);
/** Why the list could not be read, if it could not. */
export const listError = signal<string | null>(null);
/** The search box. */
export const query = signal('');
/** The order of sessions inside each project (newest session first by default). */
export const sortKey = signal<SortKey>('created');
/** Only this project (cwd), or '' for all. */
export const projectFilter = signal('');
/** Ids ticked for a bundle export or a bulk delete. */
export const selected = signal<ReadonlySet<string>>(new Set());

/** Each session's project: its cwd, or a variant's original's (a shared copy brought back has its cwd redacted). */
export const projectOf = computed(() => projectsOf(sessions.value));

/** Every project (cwd) in the library, for the filter. */
export const projects = computed(() => [...new Set(projectOf.value.values())].sort());

/** Each parent's subagent transcripts, in the order they started (listed under it, not as sessions of their own). */
export const subagentsOf = computed(() => {
  const ids = new Set(sessions.value.map((s) => s.id));
  const children = new Map<string, SessionSummary[]>();
  for (const s of sessions.value)
    if (s.parentOf && ids.has(s.parentOf)) {
      const list = children.get(s.parentOf);
      if (list) list.push(s);
      else children.set(s.parentOf, [s]);
    }
  for (const list of children.values()) list.sort((a, b) => a.created.localeCompare(b.created));
  return children;
});

/** What the list shows (when not searching): filtered, sorted, grouped by project, newest project first. */
export const groups = computed<ProjectGroup[]>(() => {
  // A subagent transcript whose parent is stored is reached from the parent, not listed beside it.
  const ids = new Set(sessions.value.map((s) => s.id));
  let list = sessions.value.filter((s) => !(s.parentOf && ids.has(s.parentOf)));
  const project = projectOf.value;
  if (projectFilter.value) list = list.filter((s) => project.get(s.id) === projectFilter.value);
  return groupByProject(sortSessions(list, sortKey.value), project);
});

/** Orders sessions by a key; ties keep the newest first. */
export function sortSessions(list: SessionSummary[], key: SortKey): SessionSummary[] {
  const byNewest = (a: SessionSummary, b: SessionSummary) => b.modified - a.modified;
  const compare: Record<SortKey, (a: SessionSummary, b: SessionSummary) => number> = {
    modified: byNewest,
    // The session's date, as its card shows it.
    created: (a, b) => b.date - a.date || byNewest(a, b),
    size: (a, b) => b.size - a.size || byNewest(a, b),
    cost: (a, b) => b.totals.cost - a.totals.cost || byNewest(a, b),
    title: (a, b) => displayTitle(a).localeCompare(displayTitle(b)) || byNewest(a, b),
  };
  return [...list].sort(compare[key]);
}

/** Groups sorted sessions by project (`project`: id → cwd, else the session's own); groups follow the position of their first session. */
export function groupByProject(list: SessionSummary[], project: ReadonlyMap<string, string> = new Map()): ProjectGroup[] {
  const groups = new Map<string, ProjectGroup>();
  for (const s of list) {
    const cwd = project.get(s.id) ?? s.cwd;
    const group = groups.get(cwd) ?? { cwd, sessions: [] };
    group.sessions.push(s);
    groups.set(cwd, group);
  }
  return [...groups.values()];
}

let arrivedIntoEmpty = false;

/** Whether the list's last change brought the first sessions into an empty library from elsewhere (a sync, another tab), not a read at boot. */
export function firstArrival(): boolean {
  return arrivedIntoEmpty;
}

let refreshing: Promise<void> | null = null;
let refreshAgain = false;
// What the next read asks: the whole list, or only the sessions named since the last read.
let readWhole = true;
const named = new Set<string>();
// Ids the gate let in: read now, not held again.
const taking = new Set<string>();
// New sessions named by notices while a stream of them goes on: taken in a few at a time (arrivals.ts).
const gate = arrivalGate(
  (ids) => {
    for (const id of ids) taking.add(id);
    void refreshLibrary(ids);
  },
  (id) => !idsOf(sessions.peek()).has(id),
);

/**
 * Reads the list again from the worker; calls during a refresh are folded into one more. With
 * `ids` (a change notice's), only those sessions cross over, with the list's order: a sync writing
 * a thousand sessions in batches costs the page each batch, not the whole list each time.
 */
export function refreshLibrary(ids?: Iterable<string>): Promise<void> {
  if (ids) for (const id of ids) named.add(id);
  else readWhole = true;
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = readLibrary().finally(() => {
    refreshing = null;
    if (refreshAgain) {
      refreshAgain = false;
      void refreshLibrary([]);
    }
  });
  return refreshing;
}

async function readLibrary(): Promise<void> {
  const whole = readWhole || !loaded.peek() || listError.peek() !== null;
  const asked = [...named];
  readWhole = false;
  named.clear();
  try {
    arrivedIntoEmpty = false;
    if (whole) {
      gate.clear();
      const list = await library.listSessions({});
      await nextTask();
      sessions.value = keepUnchanged(sessions.peek(), list);
    } else if (asked.length) {
      const ids = holdArrivals(asked);
      if (!ids.length) return;
      const next = await mergedChanges(ids);
      arrivedIntoEmpty = next.length > 0 && sessions.peek().length === 0;
      sessions.value = next;
    } else return;
    arriving.value = gate.count();
    listError.value = null;
    const ids = idsOf(sessions.value);
    if ([...selected.value].some((id) => !ids.has(id))) selected.value = new Set([...selected.value].filter((id) => ids.has(id)));
  } catch (e) {
    // Read whole next time (what was asked now is not lost).
    readWhole = true;
    listError.value = isMissingMethod(e) ? null : describeError(e);
  } finally {
    loaded.value = true;
  }
  if (query.value.trim()) void runSearch(query.value);
}

/**
 * Of the ids notices named, those to read now: while notices come in a stream (a sync writing a
 * library) and the list shows some sessions, the gate holds them (new ones counted, none read) until
 * it lets them in together.
 */
function holdArrivals(asked: string[]): string[] {
  const letIn = taking.size ? new Set(taking) : null;
  taking.clear();
  if (!sessions.peek().length) return asked;
  const rest = letIn ? asked.filter((id) => !letIn.has(id)) : asked;
  return rest.length && gate.hold(rest) ? asked.filter((id) => !gate.holds(id)) : asked;
}

/** Asks for sessions stored meanwhile before those still unknown are left to their own notices. */
const UNKNOWN_TRIES = 2;

/**
 * The list with the sessions `asked` names read again, and those stored meanwhile (named in the
 * answer's order but not yet by a notice here) read in a second, small ask: never the whole list
 * because a notice is still on its way. Each answer is merged in a task of its own (the worker's
 * answer is decoded in the task that receives it; merging and drawing come after), so one batch
 * costs the page two short tasks, not one long one. Sessions still unknown after the last try (the
 * library keeps growing under the reads) wait for their own notices.
 */
async function mergedChanges(asked: string[]): Promise<SessionSummary[]> {
  let ids = asked;
  for (let i = 1; ; i++) {
    const answer = await library.listChanges({ ids });
    await nextTask();
    const next = i < UNKNOWN_TRIES && mergeChanges(sessions.peek(), answer);
    if (next) return next;
    // Sessions the gate holds are not asked for: they come in its next step.
    const more = unknownIds(sessions.peek(), answer).filter((id) => !gate.holds(id));
    if (i === UNKNOWN_TRIES || !more.length) return mergeKnown(sessions.peek(), answer);
    ids = [...new Set([...ids, ...more])];
  }
}

/**
 * Updates the search box and searches as the user types: each keystroke asks the index at once, and
 * cancels the question of the keystroke before (its answer is never shown). Keys pressed together
 * (a paste) are one input event, so one search.
 */
export function setQuery(text: string): void {
  query.value = text;
  void search(text);
}

/** Searches again (the library changed). */
export function runSearch(text: string): Promise<void> {
  return search(text);
}

/** Ticks or unticks a session. */
export function toggleSelected(id: string): void {
  const next = new Set(selected.value);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  selected.value = next;
}

/** Unticks everything. */
export function clearSelection(): void {
  selected.value = new Set();
}

/** Renames a session (the worker appends a session_info / title_change entry). */
export async function renameSession(id: string, title: string): Promise<void> {
  try {
    const updated = await library.renameSession({ id, title });
    sessions.value = sessions.value.map((s) => (s.id === id ? updated : s));
  } catch (e) {
    showToast(`Could not rename: ${describeError(e)}`);
  }
}

/** Deletes sessions and offers to undo. */
export async function deleteSessions(ids: string[]): Promise<void> {
  const names = sessions.value.filter((s) => ids.includes(s.id)).map(displayTitle);
  const tokens: string[] = [];
  try {
    for (const id of ids) tokens.push((await library.deleteSession({ id })).undoToken);
  } catch (e) {
    showToast(`Could not delete: ${describeError(e)}`);
  }
  sessions.value = sessions.value.filter((s) => !ids.includes(s.id));
  clearSelection();
  void refreshStorage();
  if (!tokens.length) return;
  const what = ids.length === 1 ? `“${names[0] ?? 'session'}”` : `${ids.length} sessions`;
  showToast(`Deleted ${what}.`, { label: 'Undo', run: () => void undoDeletes(tokens) });
}

async function undoDeletes(tokens: string[]): Promise<void> {
  try {
    for (const undoToken of tokens) await library.undoDelete({ undoToken });
    showToast('Restored.');
  } catch (e) {
    showToast(`Could not undo: ${describeError(e)}`);
  }
  await refreshLibrary();
}

/** The least time between two refreshes that changes from elsewhere bring (a sync writing many sessions is a stream of them). */
export const CHANGES_GAP_MS = 400;

/**
 * Refreshes when another tab (or this tab's worker) changes the library: the first change at once,
 * those that follow in one refresh at most every `CHANGES_GAP_MS`.
 */
export function watchLibraryChanges(): void {
  if (!('BroadcastChannel' in window)) return;
  const channel = new BroadcastChannel('rho-sessions');
  // The sessions named by the notices since the last refresh (null: one named none, read the whole list).
  let ids: Set<string> | null = new Set();
  const refresh = coalesced(CHANGES_GAP_MS, () => {
    void refreshLibrary(ids ?? undefined);
    ids = new Set();
    void refreshStorage();
  });
  channel.addEventListener('message', (event: MessageEvent<{ type?: string; ids?: unknown }>) => {
    if (event.data?.type !== 'changed') return;
    const named = event.data.ids;
    if (ids && Array.isArray(named)) for (const id of named) if (typeof id === 'string') ids.add(id);
    if (!Array.isArray(named)) ids = null;
    refresh();
  });
}
