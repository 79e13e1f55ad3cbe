// Keeping the page's work small while the library changes under it (a sync or an import writing
// sessions one after another): unchanged summaries keep their objects, refreshes are spaced.
import type { SessionSummary } from './calls.ts';

/**
 * The fresh list, with the previous object of each session whose summary did not change (cards
 * draw again only for another object). A summary changes with its bytes (size, time of the write)
 * or with what the store links to it (parent, variant, title): those are compared.
 */
export function keepUnchanged(before: SessionSummary[], after: SessionSummary[]): SessionSummary[] {
  if (!before.length) return after;
  const old = new Map(before.map((s) => [s.id, s]));
  return after.map((s) => {
    const was = old.get(s.id);
    return was && sameSummary(was, s) ? was : s;
  });
}

function sameSummary(a: SessionSummary, b: SessionSummary): boolean {
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof SessionSummary>) {
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    // totals and usage follow the bytes (size and modified, compared as the rest); a subagent link is small
    if (key === 'totals' || key === 'usage') continue;
    if (key === 'subagent' && JSON.stringify(x) === JSON.stringify(y)) continue;
    return false;
  }
  return true;
}

/** `run` at once on the first call, then at most once per `gap` ms for calls that keep coming (the last is never dropped). */
export function coalesced(
  gap: number,
  run: () => void,
  now: () => number = () => performance.now(),
  later: (fn: () => void, ms: number) => unknown = (fn, ms) => setTimeout(fn, ms),
): () => void {
  let last = Number.NEGATIVE_INFINITY;
  let timer: unknown = null;
  const fire = () => {
    timer = null;
    last = now();
    run();
  };
  return () => {
    if (timer !== null) return;
    const wait = last + gap - now();
    if (wait <= 0) fire();
    else timer = later(fire, wait);
  };
}

/**
 * The list after a change notice: `order` (every stored id, in list order) drawn from the changed
 * summaries and the objects already here (a changed summary equal to the one here keeps its object).
 * Null when `order` names a session neither changed nor here (a notice was missed: read the whole list).
 * The same array when nothing moved or changed.
 */
export function mergeChanges(before: SessionSummary[], { changed, order }: { changed: SessionSummary[]; order: string[] }): SessionSummary[] | null {
  const old = new Map(before.map((s) => [s.id, s]));
  const fresh = new Map(changed.map((s) => [s.id, s]));
  const out: SessionSummary[] = [];
  let same = order.length === before.length;
  for (let i = 0; i < order.length; i++) {
    const id = order[i];
    const was = old.get(id);
    const now = fresh.get(id);
    const s = now && !(was && sameSummary(was, now)) ? now : was;
    if (!s) return null;
    if (s !== before[i]) same = false;
    out.push(s);
  }
  return same ? before : out;
}

/**
 * The ids `order` names that neither `before` nor `changed` holds: sessions stored after the notices
 * that name them were sent (those notices are still on their way), or named by a notice this page
 * missed. Asking for these alone costs the page their summaries, not the whole list again.
 */
export function unknownIds(before: SessionSummary[], { changed, order }: { changed: SessionSummary[]; order: string[] }): string[] {
  const known = new Set(before.map((s) => s.id));
  for (const s of changed) known.add(s.id);
  return order.filter((id) => !known.has(id));
}

/**
 * `mergeChanges` with the ids it cannot place left out: sessions stored after the notices that name
 * them were sent join the list when those notices arrive (a sync's round names every session it
 * changed once more at its end).
 */
export function mergeKnown(before: SessionSummary[], answer: { changed: SessionSummary[]; order: string[] }): SessionSummary[] {
  const unknown = new Set(unknownIds(before, answer));
  const order = unknown.size ? answer.order.filter((id) => !unknown.has(id)) : answer.order;
  return mergeChanges(before, { changed: answer.changed, order }) ?? before;
}

let idsFor: SessionSummary[] | null = null;
let idsKept: ReadonlySet<string> = new Set();

/** The ids of `list` (the set kept for the last list asked about: a stream of notices asks about one list many times). */
export function idsOf(list: SessionSummary[]): ReadonlySet<string> {
  if (list !== idsFor) {
    idsFor = list;
    idsKept = new Set(list.map((s) => s.id));
  }
  return idsKept;
}
