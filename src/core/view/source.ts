import { bodyOf, indexEnvelopes, type EnvelopeIndex } from '../envelope/envelopes.ts';
import type { Entry } from '../schema/types.ts';
import { contentText, isObject, str } from './parts.ts';
import { metadataTitle, plainTitle } from '../tree/title.ts';

/**
 * A session as the reader reads it: the core's envelope index (types, ids, parents, byte ranges of
 * every line, no bodies) plus bodies parsed on demand and kept. Opening a 60 MB session costs one
 * scan; only what is shown, searched, counted or sent to a model is ever parsed.
 */
export interface SessionSource {
  id: string;
  index: EnvelopeIndex;
  /** Entries in the file. */
  count: number;
  /** The body of entry i (parsed once), or a stand-in for an unreadable line. */
  body(i: number): Entry;
  /** Positions of the children of an entry id (null: roots and orphans), in file order. */
  childrenOf(id: string | null): number[];
  /** Latest label per target id. */
  labels(): Map<string, string>;
}

const UNREADABLE: Entry = { type: '(unreadable line)' };

/** Wraps a file's bytes (or text) for reading. */
export function openSource(id: string, input: Uint8Array | string): SessionSource {
  return sourceOfIndex(id, indexEnvelopes(input, { file: id }));
}

/** Wraps an envelope index already made (or loaded from its stored copy) for reading. */
export function sourceOfIndex(id: string, index: EnvelopeIndex): SessionSource {
  const bodies: Array<Entry | undefined> = new Array(index.ids.length);
  let children: Map<string | null, number[]> | null = null;
  let labels: Map<string, string> | null = null;

  const body = (i: number): Entry => {
    let entry = bodies[i];
    if (entry === undefined) bodies[i] = entry = bodyOf(index, i) ?? UNREADABLE;
    return entry;
  };

  const childIndex = () => {
    if (children) return children;
    children = new Map();
    const { ids, parentIds, indexById } = index;
    for (let i = 0; i < ids.length; i++) {
      if (typeof ids[i] !== 'string' || indexById.get(ids[i] as string) !== i) continue;
      const parent = parentIds[i];
      // Roots and orphans both hang under null (as the core's tree does).
      const key = typeof parent === 'string' && indexById.has(parent) ? parent : null;
      let list = children.get(key);
      if (!list) children.set(key, (list = []));
      list.push(i);
    }
    return children;
  };

  const labelIndex = () => {
    if (labels) return labels;
    labels = new Map();
    for (let i = 0; i < index.types.length; i++) {
      if (index.types[i] !== 'label') continue;
      const entry = body(i);
      if (typeof entry.targetId !== 'string') continue;
      // Latest label entry per target wins; an empty label clears (spec §2.9).
      const text = str(entry.label).trim();
      if (text) labels.set(entry.targetId, text);
      else labels.delete(entry.targetId);
    }
    return labels;
  };

  return { id, index, count: index.ids.length, body, childrenOf: (id) => childIndex().get(id) ?? [], labels: labelIndex };
}

/** The newest leaf reached from an entry by always taking the latest child (iterative, cycle-safe). */
export function newestLeaf(source: SessionSource, id: string): string {
  const seen = new Set<string>();
  let at = id;
  for (;;) {
    seen.add(at);
    const kids = source.childrenOf(at).filter((i) => !seen.has(source.index.ids[i] as string));
    if (!kids.length) return at;
    at = source.index.ids[kids[kids.length - 1]] as string;
  }
}

/**
 * The title the reader shows: omp slot title, last title_change, last session_info name, header
 * title (spec §0.5.4), else the first line of the first user message, else "Untitled session".
 */
export function titleOf(source: SessionSource): string {
  const { index } = source;
  const slot = index.titleSlot?.title;
  if (typeof slot === 'string' && slot.trim()) return slot.trim();
  let changed: string | null = null;
  let named: string | null = null;
  for (let i = 0; i < index.types.length; i++) {
    const type = index.types[i];
    if (type === 'title_change') {
      const title = source.body(i).title;
      if (typeof title === 'string') changed = title;
    } else if (type === 'session_info') named = str(source.body(i).name).trim() || null;
  }
  const header = typeof index.header?.title === 'string' && index.header.title.trim() ? index.header.title.trim() : null;
  const chosen = changed ?? named ?? header;
  if (chosen) return plainTitle(chosen) || chosen;
  for (let i = 0; i < index.types.length && i < 200; i++) {
    if (index.types[i] !== 'message') continue;
    const message = source.body(i).message;
    if (!isObject(message) || message.role !== 'user') continue;
    const first = plainTitle(
      contentText(message.content)
        .replace(/<attachment[\s\S]*?<\/attachment>/g, '')
        .trim()
        .split('\n')[0],
    ).slice(0, 80);
    if (first) return first;
  }
  for (let i = 0; i < index.types.length && i < 200; i++) {
    const named = index.types[i] === 'custom' ? metadataTitle(source.body(i)) : null;
    if (named) return named;
  }
  return 'Untitled session';
}
