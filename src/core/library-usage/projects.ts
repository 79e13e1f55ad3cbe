// The project a session belongs to. A variant (a copy kept beside a stored session: a shared copy
// brought back, whose cwd the share redacted) belongs to the project of the session it diverged
// from, so one project is one group in the library and one row in Usage.

/** What the project of a record is read from (the storage summary has these fields). */
export interface ProjectRecord {
  id: string;
  cwd: string;
  /** The store id of the session this one is a variant of. */
  variantOf?: string;
}

/** Each record's top along `next` (itself when `next` names no stored record; a record in a loop stays on its own). */
export function topsAlong<R extends { id: string }>(records: readonly R[], next: (r: R) => string | undefined): Map<string, R> {
  const byId = new Map(records.map((r) => [r.id, r]));
  const tops = new Map<string, R>();
  for (const r of records) {
    let top = r;
    let p = next(r);
    // Most records name none: the set of those passed is made only for the others.
    const seen = p === undefined ? null : new Set([r.id]);
    while (seen && p !== undefined) {
      const up = byId.get(p);
      if (!up) break;
      if (seen.has(up.id)) {
        top = r;
        break;
      }
      seen.add(up.id);
      top = up;
      p = next(up);
    }
    tops.set(r.id, top);
  }
  return tops;
}

/** Each record's project: its own cwd, or for a variant its original's (`variantOf` followed to the top). */
export function projectsOf(records: readonly ProjectRecord[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, top] of topsAlong(records, (r) => r.variantOf)) out.set(id, top.cwd);
  return out;
}
