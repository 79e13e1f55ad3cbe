// Bundles carry subagent transcripts in the layout they came in, beside their parent's file, so an
// import on another device links them again (the parent's folder name also carries its id).
import { subagentPath } from '../../core/index.ts';
import { piFileName, piProjectDir } from '../../storage/names.ts';
import type { SessionSummary } from '../../storage/types.ts';

/** The sessions of a bundle: the chosen ones and, after each parent, its subagent transcripts (recursively). */
export function withChildren(chosen: SessionSummary[], all: SessionSummary[]): SessionSummary[] {
  const out: SessionSummary[] = [];
  const seen = new Set<string>();
  const stack = [...chosen].reverse();
  while (stack.length) {
    const s = stack.pop() as SessionSummary;
    if (seen.has(s.id)) continue;
    seen.add(s.id);
    out.push(s);
    const kids = all.filter((c) => c.parentOf === s.id && !seen.has(c.id));
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return out;
}

/**
 * The path of each session in a bundle: pi's `sessions/<project>/<timestamp>_<id>.jsonl`, a child
 * beside its parent's path (its parent looked up in `all` when not in the bundle). Names are unique.
 */
export function bundlePaths(sessions: SessionSummary[], all: SessionSummary[]): Map<string, string> {
  const byId = new Map(all.map((s) => [s.id, s]));
  for (const s of sessions) byId.set(s.id, s);
  const paths = new Map<string, string>();
  const used = new Set<string>();
  const pathOf = (s: SessionSummary, depth = 0): string => {
    const known = paths.get(s.id);
    if (known) return known;
    const parent = s.parentOf ? byId.get(s.parentOf) : undefined;
    let name =
      parent && s.subagent && depth < 32
        ? subagentPath(pathOf(parent, depth + 1), s.subagent)
        : `sessions/${piProjectDir(s.cwd)}/${piFileName(s.id, s.created)}`;
    for (let n = 2; used.has(name); n++) name = name.replace(/(\.jsonl)$/, `-${n}$1`);
    used.add(name);
    paths.set(s.id, name);
    return name;
  };
  for (const s of sessions) pathOf(s);
  return paths;
}
