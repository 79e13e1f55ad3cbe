// The branch as pi walks it, and the attachments a compaction summarized away (§0.3.1): the pi side of the fidelity tests.
type Any = Record<string, any>;

/** pi's path (buildSessionContext step 3–4), with a guard instead of pi's hang on cycles. */
export function piPath(entries: readonly Any[], leafId?: string | null): Any[] {
  const byId = new Map<string, Any>();
  for (const e of entries) byId.set(e.id, e);
  let leaf = leafId ? byId.get(leafId) : undefined;
  if (!leaf) leaf = entries[entries.length - 1];
  const path: Any[] = [];
  const seen = new Set<Any>();
  for (let cur: Any | undefined = leaf; cur && !seen.has(cur); cur = cur.parentId ? byId.get(cur.parentId) : undefined) {
    seen.add(cur);
    path.push(cur);
  }
  return path.reverse();
}

/**
 * §0.3.1: "- <name> (<mimeType>) at <path>: <about>" for each attachment of the user messages in
 * the summarized part of the path: everything before `kept` (before the compaction when its
 * firstKeptEntryId is not on the path before it).
 */
export function summarizedAttachments(path: readonly Any[]): string[] {
  let c = -1;
  for (let i = path.length - 1; i >= 0; i--)
    if (path[i].type === 'compaction') {
      c = i;
      break;
    }
  if (c < 0) return [];
  let start = c;
  for (let i = 0; i < c; i++)
    if (path[i].id === path[c].firstKeptEntryId) {
      start = i;
      break;
    }
  const lines: string[] = [];
  for (const e of path.slice(0, start)) {
    const m = e.type === 'message' ? e.message : null;
    if (m?.role !== 'user' || !Array.isArray(m.attachments)) continue;
    for (const a of m.attachments) lines.push(`- ${a.name} (${a.mimeType}) at ${a.path}: ${a.about}`);
  }
  return lines;
}
