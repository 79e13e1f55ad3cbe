// The library as pi reads it: a store whose sessions are all pi files. A pi or omp session is its
// stored bytes; another agent's (Claude Code, Codex) is its pi conversion (derived.ts), with its
// summary's `size` the conversion's. Everything that interprets a session (the reader, search,
// share and HTML pages, branch exports, forks, subagent links) works on this view; what keeps or
// compares the original bytes (import, linked folders, "export original", bundles) works on the store.
import { digestSession } from '../core/index.ts';
import { blobChunks } from './chunks.ts';
import { StoreError } from './errors.ts';
import type { SessionStore, SessionSummary } from './types.ts';

const asPi = (s: SessionSummary): SessionSummary => (s.piSize === undefined ? s : { ...s, size: s.piSize });
const asPiOrNull = (s: SessionSummary | null) => (s ? asPi(s) : null);

/** The pi view of a store (see the module description). */
export function piView(store: SessionStore): SessionStore {
  // The conversion when the session is another agent's, else null (read the store).
  const converted = async (id: string): Promise<Blob | null> => store.readConversion(id);
  const readOnly = async (id: string) => {
    const s = await store.get(id);
    if (s?.piSize !== undefined) {
      const who = s.agent === 'codex' ? 'Codex' : 'Claude Code';
      throw new StoreError('unsupported', `Written by ${who}: read-only here. Export it as a pi session to continue it in pi.`, s.path);
    }
  };
  return {
    ...store,
    async readBytes(id) {
      const c = await converted(id);
      return c ? new Uint8Array(await c.arrayBuffer()) : store.readBytes(id);
    },
    async readRange(id, start, end) {
      const c = await converted(id);
      return c ? new Uint8Array(await c.slice(start, end).arrayBuffer()) : store.readRange(id, start, end);
    },
    async readFile(id) {
      return (await converted(id)) ?? store.readFile(id);
    },
    async scan(id) {
      const c = await converted(id);
      return c ? digestSession(blobChunks(c)) : store.scan(id);
    },
    get: async (id) => asPiOrNull(await store.get(id)),
    list: async () => (await store.list()).map(asPi),
    family: async (headerId) => (await store.family(headerId)).map(asPi),
    async create(id, chunks, opts) {
      return asPi(await store.create(id, chunks, opts));
    },
    async appendRaw(id, bytes, signal) {
      await readOnly(id);
      return store.appendRaw(id, bytes, signal);
    },
    async appendLines(id, bytes, known) {
      await readOnly(id);
      return store.appendLines(id, bytes, known);
    },
    async replace(id, chunks) {
      await readOnly(id);
      return store.replace(id, chunks);
    },
    async setParent(id, link) {
      return asPi(await store.setParent(id, link));
    },
    async restore(token) {
      return asPi(await store.restore(token));
    },
  };
}
