// The date of a session: one rule wherever a session's date shows or orders (library cards, search
// hits, sorting by date). It is the time of its latest entry, leaving out what is written *about*
// the session rather than in it (labels, a name or title given to it), so a session labelled or
// renamed today still reads as the day its conversation last moved; a session with no other entry
// (a header alone) dates from its header. 0 when nothing in it has a readable time.

/** Entries that mark or name a session without moving its conversation on. */
const ABOUT_THE_SESSION = new Set(['label', 'session_info', 'title_change']);

/** The time a record was written, in ms: its `timestamp` (ISO text, or ms), else its message's; 0 when neither is readable. */
export function recordTime(record: Record<string, unknown>): number {
  const own = timeOf(record.timestamp);
  if (own) return own;
  const m = record.message as { timestamp?: unknown } | undefined;
  return m && typeof m === 'object' ? timeOf(m.timestamp) : 0;
}

function timeOf(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) && v > 0 ? v : 0;
  if (typeof v !== 'string') return 0;
  const t = Date.parse(v);
  return Number.isNaN(t) ? 0 : t;
}

/** Whether an entry dates its session (see the rule above). */
export function datesSession(entry: Record<string, unknown>): boolean {
  return !ABOUT_THE_SESSION.has(String(entry.type));
}

/** What a session's date was gathered from so far (`createSessionDate`'s `state`), to go on from it. */
export interface SessionDateState {
  header: number;
  seenHeader: boolean;
  latest: number;
}

/** A session's date gathered from its header and entries as they are read (in any order); `from`: where an earlier reading of its start left off. */
export function createSessionDate(from?: SessionDateState) {
  let header = from?.header ?? 0;
  let seenHeader = from?.seenHeader ?? false;
  let latest = from?.latest ?? 0;
  return {
    /** What it has gathered, to go on from later. */
    state(): SessionDateState {
      return { header, seenHeader, latest };
    },
    /** The file's header (the first one: a later header line is not the file's). */
    header(record: Record<string, unknown>): void {
      if (!seenHeader) header = recordTime(record);
      seenHeader = true;
    },
    entry(record: Record<string, unknown>): void {
      if (!datesSession(record)) return;
      const t = recordTime(record);
      if (t > latest) latest = t;
    },
    /** ms since epoch; 0 when unknown. */
    date(): number {
      return latest || header;
    },
  };
}
