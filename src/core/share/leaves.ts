// The strings of a session record that a review looks at, each with its path in the record and
// where in the conversation it sits. Iterative (tool arguments can nest deeply).

/** A step in a record: an object key or an array index. */
export type PathStep = string | number;

/** Where in the conversation a string sits (the review shows it, and groups may filter by it). */
export type Where = 'header' | 'user message' | 'assistant message' | 'thinking' | 'tool call' | 'tool output' | 'summary' | 'custom message' | 'other';

/** One string of a record, with its path from the record's root. */
export interface Leaf {
  path: PathStep[];
  text: string;
}

// Keys whose values are structure, ids, enums or opaque encodings, never text a person wrote:
// scanning them finds nothing worth redacting and redacting them would break the session.
const SKIP_KEYS = new Set([
  'type',
  'id',
  'parentId',
  'timestamp',
  'version',
  'toolCallId',
  'targetId',
  'firstKeptEntryId',
  'fromId',
  'role',
  'api',
  'provider',
  'stopReason',
  'mimeType',
  'thinkingSignature',
  'textSignature',
  'thoughtSignature',
  'responseId',
  'itemId',
]);

/** Whether an object is a part whose `data` holds bytes (an image, omp's redacted thinking), not text. */
function holdsBytes(o: Record<string, unknown>): boolean {
  return o.type === 'image' || o.type === 'redactedThinking';
}

/** Every string leaf of a JSON value, in document order, except structural and opaque ones. */
export function stringLeaves(value: unknown): Leaf[] {
  const out: Leaf[] = [];
  const stack: Array<{ v: unknown; path: PathStep[] }> = [{ v: value, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop() as { v: unknown; path: PathStep[] };
    if (typeof v === 'string') {
      if (v.length) out.push({ path, text: v });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: [...path, i] });
    } else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const bytes = holdsBytes(o);
      const keys = Object.keys(o);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i];
        if (SKIP_KEYS.has(k) || (bytes && k === 'data')) continue;
        stack.push({ v: o[k], path: [...path, k] });
      }
    }
  }
  return out;
}

/** Where a leaf of a record sits: its role, its part type, or the entry's kind. */
export function whereOf(record: Record<string, unknown>, path: readonly PathStep[]): Where {
  if (record.type === 'session') return 'header';
  if (record.type === 'compaction' || record.type === 'branch_summary') return 'summary';
  if (record.type === 'custom_message') return 'custom message';
  if (record.type !== 'message' || path[0] !== 'message') return 'other';
  const m = record.message as Record<string, unknown> | undefined;
  switch (m?.role) {
    case 'user':
      return 'user message';
    case 'toolResult':
      return 'tool output';
    case 'bashExecution':
    case 'pythonExecution':
      return path[1] === 'command' || path[1] === 'code' ? 'tool call' : 'tool output';
    case 'custom':
    case 'hookMessage':
      return 'custom message';
    case 'assistant': {
      if (path[1] !== 'content' || typeof path[2] !== 'number') return 'assistant message';
      const part = (m.content as Array<Record<string, unknown>>)[path[2]];
      if (part?.type === 'thinking') return 'thinking';
      if (part?.type === 'toolCall') return 'tool call';
      return 'assistant message';
    }
    default:
      return 'other';
  }
}

/** The value at a path (undefined when the path leads nowhere). */
export function valueAt(root: unknown, path: readonly PathStep[]): unknown {
  let v: unknown = root;
  for (const step of path) {
    if (!v || typeof v !== 'object') return undefined;
    v = (v as Record<PathStep, unknown>)[step];
  }
  return v;
}

/** Sets the value at a path that exists. */
export function setAt(root: unknown, path: readonly PathStep[], value: unknown): void {
  const parent = valueAt(root, path.slice(0, -1));
  if (parent && typeof parent === 'object') (parent as Record<PathStep, unknown>)[path[path.length - 1]] = value;
}
