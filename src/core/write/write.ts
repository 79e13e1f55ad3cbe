// Writing (§0.4): a session in memory, and `append`, which stamps an entry and gives the exact bytes
// to add to the file. The first append also writes the header and the initial model_change.
import { modelChange, type EntryBody } from './builders.ts';
import { EntryMap } from '../tree/entry-map.ts';
import { CoreError } from './errors.ts';
import { CURRENT_SESSION_VERSION } from '../read/migrate.ts';
import { typed } from '../tree/readers.ts';
import { titleFromText } from '../tree/title.ts';
import type { TreeLike } from '../tree/tree.ts';
import type { Entry, Header, ParsedSession, TitleSlot } from '../schema/types.ts';

/** Clock and id sources (the core has none of its own). */
export interface WriteDeps {
  now: () => Date;
  /** 8 lowercase hex chars; called again on a collision. */
  randomId: () => string;
  /** A UUIDv7 for the header; built from `now` and `randomId` when absent. */
  uuidv7?: () => string;
}

/** A session being written: the tree so far plus what the first append needs. */
export interface Session extends TreeLike, WriteDeps {
  header: Header | null;
  titleSlot: TitleSlot | null;
  version: number;
  /** req_llm spec of the model the first append records. */
  model: string;
  title?: string;
  id?: string;
  cwd: string;
  /** Physical lines written so far (gives appended entries their line numbers). */
  lineCount: number;
}

/**
 * A new session for `model` (a req_llm spec). Nothing is written until the first `append`, which
 * writes the header (titled `title`, else from the first user message), a model_change, then the entry.
 */
export function newSession(opts: { model: string; title?: string; id?: string; cwd?: string } & WriteDeps): Session {
  return {
    header: null,
    titleSlot: null,
    version: CURRENT_SESSION_VERSION,
    model: opts.model,
    title: opts.title,
    id: opts.id,
    cwd: opts.cwd ?? '',
    now: opts.now,
    randomId: opts.randomId,
    uuidv7: opts.uuidv7,
    ...emptyTree(),
    leafId: null,
    lineCount: 0,
  };
}

// An empty entry list with its index; byId is a view over both, so appends only touch the index.
function emptyTree(): Pick<Session, 'entries' | 'entryLines' | 'byId' | 'indexById'> {
  const entries: Entry[] = [];
  const indexById = new Map<string, number>();
  return { entries, entryLines: [], indexById, byId: new EntryMap(indexById, entries) };
}

/** A parsed file made ready for appending (the next entry's parent is its leaf). */
export function openSession(parsed: ParsedSession, deps: WriteDeps & { model?: string }): Session {
  return {
    header: parsed.header,
    titleSlot: parsed.titleSlot,
    version: parsed.version,
    model: deps.model ?? '',
    cwd: parsed.header?.cwd ?? '',
    now: deps.now,
    randomId: deps.randomId,
    uuidv7: deps.uuidv7,
    entries: parsed.entries,
    entryLines: parsed.entryLines,
    byId: parsed.byId,
    indexById: parsed.indexById,
    leafId: parsed.leafId,
    lineCount: parsed.lineCount,
  };
}

/** A UUIDv7 string from a time and 8-hex random chunks (RFC 9562 layout). */
export function uuidv7From(ms: number, randomId: () => string): string {
  const time = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0').slice(-12);
  const r = (randomId() + randomId() + randomId())
    .replace(/[^0-9a-f]/gi, '0')
    .toLowerCase()
    .padEnd(24, '0');
  const variant = ((parseInt(r[3], 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${r.slice(0, 3)}-${variant}${r.slice(4, 7)}-${r.slice(7, 19)}`;
}

function freshId(session: Session, taken: Set<string>): string {
  for (let i = 0; i < 100; i++) {
    const id = session.randomId();
    if (!session.byId.has(id) && !taken.has(id)) return id;
  }
  throw new CoreError('id-exhausted', 'randomId gave 100 ids already in use');
}

const encoder = new TextEncoder();

/**
 * Appends one entry: a unique 8-hex id, `parentId` = the leaf, an ISO `timestamp` (and a message's
 * ms `timestamp` when it has none). Returns the updated session, the entry as it reads back from
 * disk, and the exact bytes to append. The session passed in shares its indexes with the result:
 * keep using the returned one. Appending to a v1 file is refused (its ids change on every migration).
 */
export function append(session: Session, body: EntryBody): { session: Session; entry: Entry; bytes: Uint8Array } {
  if (session.version < 2) throw new CoreError('append-v1', 'cannot append to a version 1 session: its ids are rebuilt on every read; convert it first');
  if (!body || typeof body.type !== 'string' || body.type === 'session')
    throw new CoreError('bad-entry', 'an entry body needs a string type other than "session"');
  const now = session.now();
  const lines: string[] = [];
  const taken = new Set<string>();
  let header = session.header;
  let leafId = session.leafId;
  const added: Entry[] = [];
  const stamp = (b: EntryBody): Entry => {
    const id = freshId(session, taken);
    taken.add(id);
    const { type, ...rest } = b;
    const msg = rest.message as Record<string, unknown> | undefined;
    if (type === 'message' && msg && typeof msg === 'object' && msg.timestamp === undefined) rest.message = { ...msg, timestamp: now.getTime() };
    const entry = JSON.parse(JSON.stringify({ type, id, parentId: leafId, timestamp: now.toISOString(), ...rest })) as Entry;
    lines.push(JSON.stringify(entry));
    added.push(entry);
    leafId = id;
    return entry;
  };
  if (header === null) {
    header = firstHeader(session, body, now);
    lines.push(JSON.stringify(header));
    stamp(modelChange(session.model));
  }
  const entry = stamp(body);
  const next: Session = { ...session, header, leafId, lineCount: session.lineCount + lines.length };
  let line = next.lineCount - added.length;
  for (const e of added) {
    next.indexById.set(e.id as string, next.entries.length);
    next.entries.push(e);
    next.entryLines.push(++line);
  }
  return { session: next, entry, bytes: encoder.encode(lines.join('\n') + '\n') };
}

function firstHeader(session: Session, body: EntryBody, now: Date): Header {
  const header: Header = {
    type: 'session',
    version: CURRENT_SESSION_VERSION,
    id: session.id ?? session.uuidv7?.() ?? uuidv7From(now.getTime(), session.randomId),
    timestamp: now.toISOString(),
    cwd: session.cwd,
  };
  const message = body.message as { role?: unknown } | undefined;
  const title = session.title ?? (body.type === 'message' && message?.role === 'user' ? titleFromText(typed(message)) : null);
  if (title) header.title = title;
  return header;
}
