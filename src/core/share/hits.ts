// Hits of a review and their redaction in a copy of a record. A hit is named by where it is
// (line, string, offsets, kind), so a review and the export made after it agree on every id.
import type { Found } from './detect.ts';
import { setAt, valueAt, whereOf, type Leaf, type PathStep, type Where } from './leaves.ts';

/** One thing that looks private, in its context. */
export interface Hit {
  /** Stable for the same bytes: `line/leaf/start-end/kind`. */
  id: string;
  kind: string;
  /** The secretlint rule that found it, when one did. */
  rule?: string;
  /** 1-based physical line of the record. */
  line: number;
  /** The id of the entry (absent for the header). */
  entryId?: string;
  where: Where;
  path: PathStep[];
  start: number;
  end: number;
  /** The text found (cut to 200 characters for display). */
  match: string;
  before: string;
  after: string;
}

/** Which hits are left in: by id, or a whole kind. Everything else found is redacted. */
export interface Choice {
  off?: Iterable<string>;
  kindsOff?: Iterable<string>;
}

/** A Found with the secretlint rule that found it. */
export type RuleFound = Found & { rule?: string };

const CONTEXT = 40;

/** The replacement text of a redacted span. */
export function redaction(kind: string): string {
  return `[redacted: ${kind}]`;
}

/** Hits of one record from what was found in each of its leaves (same order as `leaves`). */
export function hitsOf(record: Record<string, unknown>, line: number, leaves: readonly Leaf[], found: ReadonlyArray<readonly RuleFound[]>): Hit[] {
  const hits: Hit[] = [];
  const seen = new Set<string>();
  const entryId = typeof record.id === 'string' && record.type !== 'session' ? record.id : undefined;
  for (let i = 0; i < leaves.length; i++) {
    const { path, text } = leaves[i];
    for (const f of found[i] ?? []) {
      const id = `${line}/${i}/${f.start}-${f.end}/${f.kind}`;
      if (seen.has(id) || f.end <= f.start) continue;
      seen.add(id);
      hits.push({
        id,
        kind: f.kind,
        ...(f.rule ? { rule: f.rule } : {}),
        line,
        ...(entryId ? { entryId } : {}),
        where: whereOf(record, path),
        path,
        start: f.start,
        end: f.end,
        match: text.slice(f.start, Math.min(f.end, f.start + 200)),
        before: text.slice(Math.max(0, f.start - CONTEXT), f.start),
        after: text.slice(f.end, f.end + CONTEXT),
      });
    }
  }
  return hits;
}

/** A predicate over hits from a choice: true for the hits to redact. */
export function chosen(choice: Choice = {}): (h: Pick<Hit, 'id' | 'kind'>) => boolean {
  const off = new Set(choice.off ?? []);
  const kindsOff = new Set(choice.kindsOff ?? []);
  return (h) => !kindsOff.has(h.kind) && !off.has(h.id);
}

/** Replaces the given hits in a record (mutating it); overlapping spans merge. Returns whether anything changed. */
export function redactRecord(record: Record<string, unknown>, hits: readonly Hit[]): boolean {
  const byLeaf = new Map<string, Hit[]>();
  for (const h of hits) {
    const key = JSON.stringify(h.path);
    const list = byLeaf.get(key);
    if (list) list.push(h);
    else byLeaf.set(key, [h]);
  }
  let changed = false;
  for (const list of byLeaf.values()) {
    const path = list[0].path;
    const text = valueAt(record, path);
    if (typeof text !== 'string') continue;
    list.sort((a, b) => a.start - b.start || b.end - a.end);
    let out = '';
    let at = 0;
    for (let i = 0; i < list.length; ) {
      const { start, kind } = list[i];
      let end = list[i].end;
      for (i++; i < list.length && list[i].start < end; i++) end = Math.max(end, list[i].end);
      out += text.slice(at, start) + redaction(kind);
      at = end;
    }
    setAt(record, path, out + text.slice(at));
    changed = true;
  }
  return changed;
}
