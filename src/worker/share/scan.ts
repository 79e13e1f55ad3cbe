// The review scan, in two passes over a session (or one branch). The first runs secretlint and the
// core's detectors on every string and learns what they found: the user names of home-directory
// paths and every secret value. The second finds those again wherever they appear without the
// context that gave them away (a key pasted bare into a summary, a user name in a prompt) and
// hands on each record with all its hits. secretlint is called once per batch of strings.
import { findPersonal, userNameMatcher, userNamesIn, type Found } from '../../core/share/detect.ts';
import { hitsOf, type Hit, type RuleFound } from '../../core/share/hits.ts';
import { stringLeaves, type Leaf } from '../../core/share/leaves.ts';
import type { SessionStore, SessionSummary } from '../../storage/types.ts';
import { branchLines, storedRawLines, type RawLine, type Scope } from './lines.ts';
import { findSecrets } from './secrets.ts';

/** What a scan covers. */
export interface ScanScope {
  scope: Scope;
  leafId?: string;
}

/** One record with what was found in it; `value` is null for a line that is not JSON. */
export interface ScannedRecord {
  line: number;
  bytes: Uint8Array;
  value: Record<string, unknown> | null;
  hits: Hit[];
}

const decoder = new TextDecoder();
const BATCH_BYTES = 512 * 1024;
// Values found once are looked for everywhere; these kinds are found by their shape alone anyway.
const NOT_PROPAGATED = new Set(['home-path', 'user-name', 'ip-address']);
const MAX_KNOWN = 2000;

type LeafFinds = Map<number, RuleFound[]>;

function parseObject(bytes: Uint8Array): Record<string, unknown> | null {
  try {
    const v = JSON.parse(decoder.decode(bytes));
    return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

const keyOf = (leaf: Leaf) => {
  const k = leaf.path[leaf.path.length - 1];
  return typeof k === 'string' ? k : undefined;
};

/** First pass over a batch: what secretlint and the detectors find in each string (no user names yet); found values go to `known`, user names of home paths to `names`. */
async function findInBatch(lines: readonly RawLine[], known: Map<string, string>, names: Set<string>): Promise<Map<number, LeafFinds>> {
  const values = lines.map(({ bytes }) => parseObject(bytes));
  const leaves: Leaf[][] = values.map((v) => (v ? stringLeaves(v) : []));
  const secrets = await findSecrets(leaves.flat().map((l) => l.text));
  const out = new Map<number, LeafFinds>();
  let k = 0;
  for (let r = 0; r < lines.length; r++) {
    const finds: LeafFinds = new Map();
    leaves[r].forEach((leaf, i) => {
      userNamesIn(leaf.text, names);
      const found = [...secrets[k++], ...findPersonal(leaf.text, null, keyOf(leaf))];
      if (!found.length) return;
      finds.set(i, found);
      for (const f of found) {
        const v = leaf.text.slice(f.start, f.end);
        if (v.length >= 8 && !NOT_PROPAGATED.has(f.kind) && known.size < MAX_KNOWN && !known.has(v)) known.set(v, f.kind);
      }
    });
    if (finds.size) out.set(lines[r].line, finds);
  }
  return out;
}

/** A matcher of known secret values as literals, longest first (null when there are none). */
function valueMatcher(known: Map<string, string>): RegExp | null {
  if (!known.size) return null;
  const values = [...known.keys()].sort((a, b) => b.length - a.length);
  return new RegExp(values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
}

/** The records of a batch with every hit: the first pass's finds plus user names and known values found again. */
function completeBatch(
  lines: readonly RawLine[],
  first: Map<number, LeafFinds>,
  names: RegExp | null,
  values: RegExp | null,
  known: Map<string, string>,
): ScannedRecord[] {
  return lines.map(({ line, bytes }) => {
    const value = parseObject(bytes);
    if (!value) return { line, bytes, value, hits: [] };
    const leaves = stringLeaves(value);
    const finds = first.get(line);
    const found = leaves.map((leaf, i) => {
      const own: Found[] = [...(finds?.get(i) ?? [])];
      if (names) for (const m of leaf.text.matchAll(names)) own.push({ kind: 'user-name', start: m.index as number, end: (m.index as number) + m[0].length });
      if (values)
        for (const m of leaf.text.matchAll(values))
          own.push({ kind: known.get(m[0]) as string, start: m.index as number, end: (m.index as number) + m[0].length });
      return own;
    });
    return { line, bytes, value, hits: hitsOf(value, line, leaves, found) };
  });
}

/**
 * Scans a stored session and hands `each` every record (file order, in batches) with its hits.
 * Ids of hits depend only on the bytes, so a review and the export after it agree.
 */
export async function scanSession(
  store: SessionStore,
  s: SessionSummary,
  where: ScanScope,
  each: (records: ScannedRecord[]) => void | Promise<void>,
  signal?: AbortSignal,
  onBytes?: (done: number) => void,
): Promise<void> {
  const wanted = where.scope === 'branch' ? await branchLines(store, s.id, where.leafId) : undefined;
  const first = new Map<number, LeafFinds>();
  const names = new Set<string>();
  const known = new Map<string, string>();
  let done = 0;
  await inBatches(storedRawLines(store, s, wanted, signal), async (batch) => {
    for (const [line, finds] of await findInBatch(batch, known, names)) first.set(line, finds);
    for (const b of batch) done += b.bytes.length + 1;
    onBytes?.(done / 2);
  });
  const nameMatcher = userNameMatcher(names);
  const values = valueMatcher(known);
  done = 0;
  await inBatches(storedRawLines(store, s, wanted, signal), async (batch) => {
    await each(completeBatch(batch, first, nameMatcher, values, known));
    for (const b of batch) done += b.bytes.length + 1;
    onBytes?.(s.size / 2 + done / 2);
  });
}

async function inBatches(lines: AsyncGenerator<RawLine>, run: (batch: RawLine[]) => Promise<void>): Promise<void> {
  let batch: RawLine[] = [];
  let size = 0;
  for await (const raw of lines) {
    batch.push(raw);
    size += raw.bytes.length;
    if (size >= BATCH_BYTES) {
      await run(batch);
      batch = [];
      size = 0;
    }
  }
  if (batch.length) await run(batch);
}
