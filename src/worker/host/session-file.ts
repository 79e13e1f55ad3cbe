// The session a host turn writes to: read once and kept (keyed by its size, so a file that grew
// elsewhere is read again), appended to through the core's `append` and the store's append path,
// or created by the first append of a new session (header + model_change + entry in one write).
import {
  append,
  CoreError,
  createHeldDigest,
  digestHeld,
  type HeldDigest,
  newSession,
  openSession,
  parse,
  type Entry,
  type EntryBody,
  type Session,
} from '../../core/index.ts';
import type { SessionStore, SessionSummary } from '../../storage/types.ts';
import { assertWritable } from '../library/edit.ts';
import { indexAppended } from '../import/envelopes.ts';
import { ApiFailure } from '../protocol.ts';

/** Clock and ids for what the host writes. */
export interface HostClock {
  now(): Date;
  randomId(): string;
}

/** What one write gave: the session to append to next, the entries as they read back, the store's summary. */
export interface Written {
  id: string;
  session: Session;
  entries: Entry[];
  summary: SessionSummary;
}

export function createSessionFiles(store: SessionStore, clock: HostClock) {
  // Each session read, with its digest kept as entries are appended at its leaf (core held-digest.ts).
  const cache = new Map<string, { size: number; session: Session; digest: HeldDigest }>();
  const deps = { now: () => clock.now(), randomId: () => clock.randomId() };

  function stamp(session: Session, bodies: EntryBody[]) {
    const parts: Uint8Array[] = [];
    const entries: Entry[] = [];
    try {
      for (const body of bodies) {
        const r = append(session, body);
        session = r.session;
        parts.push(r.bytes);
        entries.push(r.entry);
      }
    } catch (e) {
      if (e instanceof CoreError) throw new ApiFailure(e.code === 'append-v1' ? 'unsupported' : 'invalid-input', e.message);
      throw e;
    }
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
    return { session, entries, bytes };
  }

  return {
    /** The stored session `id`, ready to append to (read again only when its size changed). */
    async open(id: string): Promise<Session> {
      const summary = await store.get(id);
      if (!summary) throw new ApiFailure('not-found', `No session ${id} in the library.`);
      await assertWritable(store, id);
      const hit = cache.get(id);
      if (hit && hit.size === summary.size) return hit.session;
      const session = openSession(parse(await store.readBytes(id)), deps);
      cache.set(id, { size: summary.size, session, digest: createHeldDigest(session) });
      return session;
    },

    /** Appends `bodies` after `session`'s leaf (under the session's write lock, the caller's). */
    async append(id: string, session: Session, bodies: EntryBody[]): Promise<Written> {
      const r = stamp(session, bodies);
      const before = await store.get(id);
      const size = before?.size ?? 0;
      // The library's record of the file after these lines, from the session held here: the file is not read again.
      const held = cache.get(id);
      cache.delete(id);
      const same = before && held?.size === size && held.session.entries === r.session.entries ? held : null;
      const facts = { problems: before?.problems ?? 0, agent: before?.agent ?? null };
      // Appended at the held leaf, the entries alone are read; else the held session is read through (and its digest kept afresh).
      const kept = same ? same.digest.appended(r.session, facts, r.entries) : null;
      const known = same ? { size, digest: kept ?? digestHeld(r.session, facts, r.entries) } : undefined;
      const summary = await store.appendLines(id, r.bytes, known);
      if (summary.size === size + r.bytes.length) {
        await indexAppended(store, id, size, r.bytes);
        cache.set(id, { size: summary.size, session: r.session, digest: kept && same ? same.digest : createHeldDigest(r.session) });
      }
      return { id, session: r.session, entries: r.entries, summary };
    },

    /** Writes a new session's first entries (the header and model_change come with the first). */
    async create(session: Session, bodies: EntryBody[]): Promise<Written> {
      const r = stamp(session, bodies);
      const id = String(r.session.header?.id);
      const bytes = r.bytes;
      const summary = await store.withWriteLock(
        id,
        async () => {
          if (await store.get(id)) throw new ApiFailure('conflict', `A session ${id} is stored already.`);
          return store.create(
            id,
            (async function* () {
              yield bytes;
            })(),
          );
        },
        undefined,
        true,
      );
      cache.set(id, { size: summary.size, session: r.session, digest: createHeldDigest(r.session) });
      return { id, session: r.session, entries: r.entries, summary };
    },

    /** A new session in memory for model `spec` (nothing written until `create`). */
    fresh: (spec: string): Session => newSession({ model: spec, ...deps }),
  };
}

export type SessionFiles = ReturnType<typeof createSessionFiles>;
