import { isObject } from '../core/view/parts.ts';
import {
  buildContextView, buildSessionView, buildStats, chooseLeaf, findInBranch, positionOf, windowOf,
  type ContextView, type ItemFilter, type RenderItem, type SessionView, type StatsView,
} from '../core/view/index.ts';
import type { CallContext } from './protocol.ts';
import { ApiFailure } from './protocol.ts';
import type { WorkerEnv } from './env.ts';
import { decodeBase64, sniffImageType } from './image-bytes.ts';
import { createReaderCache, type OpenSession } from './reader-cache.ts';

const FILTERS: ReadonlySet<string> = new Set(['all', 'no-tools', 'user', 'labelled']);
/** Most items one readItems call returns. */
const MAX_WINDOW = 500;
const BLOB_REF = /^blob:sha256:([0-9a-f]{64})$/;

function filterOf(filter: unknown): ItemFilter {
  if (filter === undefined) return 'all';
  if (typeof filter !== 'string' || !FILTERS.has(filter)) throw new ApiFailure('invalid-input', `Unknown filter: ${String(filter)}`);
  return filter as ItemFilter;
}

/** The image part `part` of an entry: in message content, custom_message content, or bash `images`. */
function imagePartOf(entry: Record<string, unknown>, part: number): Record<string, unknown> | null {
  const message = isObject(entry.message) ? entry.message : null;
  const lists = [message?.content, entry.content, message?.images];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    const candidate = list[part];
    if (isObject(candidate) && candidate.type === 'image') return candidate;
    // bash `images` entries may lack `type`
    if (list === message?.images && isObject(candidate)) return candidate;
  }
  return null;
}

/** The model in effect on a branch: last default-role model_change, else the last assistant's. */
function modelOf(entries: ReadonlyArray<Record<string, unknown>>): string | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.type === 'model_change' && (e.role === undefined || e.role === 'default')) {
      if (typeof e.model === 'string') return e.model;
      if (typeof e.provider === 'string' && typeof e.modelId === 'string') return `${e.provider}/${e.modelId}`;
    }
    if (e.type === 'message' && isObject(e.message) && e.message.role === 'assistant' && typeof e.message.model === 'string') {
      return typeof e.message.provider === 'string' ? `${e.message.provider}/${e.message.model}` : e.message.model;
    }
  }
  return null;
}

/** The reader half of the worker API: open a session, windows of rendered items, context, stats. */
export function createReaderApi(env: WorkerEnv) {
  const cache = createReaderCache(env.store);

  async function branchFor(params: { id: string; leafId?: string | null }): Promise<{ open: OpenSession; leafId: string | null }> {
    const open = await cache.session(params.id);
    return { open, leafId: chooseLeaf(open.reader.session, params.leafId ?? null) };
  }

  return {
    /** The outline of a session for one branch (default: the file's leaf): counts, tree, marks; never the whole file. */
    async openSession(params: { id: string; leafId?: string | null; entryId?: string | null; filter?: ItemFilter }, _ctx?: CallContext): Promise<SessionView> {
      const open = await cache.session(params.id);
      const leafId = chooseLeaf(open.reader.session, params.leafId ?? null, params.entryId ?? null);
      const branch = cache.branchOf(open, leafId);
      return buildSessionView(open.reader, branch, filterOf(params.filter), params.entryId ?? null);
    },

    /** A window [start, end) of the branch's rendered items under a filter. */
    async readItems(params: { id: string; leafId?: string | null; start: number; end: number; filter?: ItemFilter }, _ctx?: CallContext): Promise<RenderItem[]> {
      const { open, leafId } = await branchFor(params);
      const start = Math.max(0, Math.floor(Number(params.start) || 0));
      const end = Math.min(start + MAX_WINDOW, Math.floor(Number(params.end) || 0));
      return windowOf(open.reader, cache.branchOf(open, leafId), filterOf(params.filter), start, end);
    },

    /** "What the model sees": the core's context for the branch, with what is left out and why. */
    async sessionContext(params: { id: string; leafId?: string | null; inputs?: Array<'text' | 'image' | 'pdf'> }, _ctx?: CallContext): Promise<ContextView> {
      const { open, leafId } = await branchFor(params);
      const branch = cache.branchOf(open, leafId);
      // Blob refs whose blob was imported count as images the model gets (bytes are not needed to show the context).
      const present = new Set<string>();
      for (const entry of branch.entries) {
        const content = isObject(entry.message) ? entry.message.content : entry.content;
        if (!Array.isArray(content)) continue;
        for (const part of content) {
          const ref = isObject(part) && typeof part.data === 'string' ? BLOB_REF.exec(part.data) : null;
          if (ref && !present.has(part.data as string) && (await env.store.readBlob(ref[1]))) present.add(part.data as string);
        }
      }
      return buildContextView(branch.entries, leafId, (id) => positionOf(open.reader, branch, 'all', id), modelOf(branch.entries), {
        inputs: params.inputs,
        resolveBlob: (ref) => (present.has(ref) ? 'AA==' : null),
      });
    },

    /** Items (positions under the filter) whose text, thinking, tool arguments or output contain the query. */
    async findInSession(params: { id: string; leafId?: string | null; query: string; filter?: ItemFilter }, _ctx?: CallContext): Promise<Array<{ index: number; entryId: string }>> {
      const { open, leafId } = await branchFor(params);
      return findInBranch(open.reader, cache.branchOf(open, leafId), filterOf(params.filter), String(params.query ?? ''));
    },

    /** Totals for the branch and the whole file, per model, and the context size over the turns. */
    async sessionStats(params: { id: string; leafId?: string | null }, _ctx?: CallContext): Promise<StatsView> {
      const { open, leafId } = await branchFor(params);
      return buildStats(open.reader.session.entries, cache.branchOf(open, leafId).entries);
    },

    /** The raw line of one entry, as it is in the file. */
    async entryJson(params: { id: string; entryId: string }, _ctx?: CallContext): Promise<string> {
      const open = await cache.session(params.id);
      const entry = open.reader.session.byId.get(params.entryId);
      const record = entry && open.reader.session.records.find((r) => r.value === entry);
      if (!record) throw new ApiFailure('not-found', `No entry ${params.entryId} in this session.`);
      return new TextDecoder().decode(open.bytes.subarray(record.start, record.end));
    },

    /**
     * An image as a Blob typed by what its bytes are (omp blob refs resolved through the store), or
     * null when it is missing or its bytes are not a raster image (SVG and anything else included).
     */
    async imageBlob(params: { id: string; entryId: string; part: number }, _ctx?: CallContext): Promise<Blob | null> {
      const open = await cache.session(params.id);
      const entry = open.reader.session.byId.get(params.entryId);
      const part = entry && imagePartOf(entry, Number(params.part));
      if (!part || typeof part.data !== 'string') return null;
      const ref = BLOB_REF.exec(part.data);
      let bytes: Uint8Array | null;
      if (ref) {
        const blob = await env.store.readBlob(ref[1]);
        bytes = blob ? new Uint8Array(await blob.arrayBuffer()) : null;
      } else bytes = decodeBase64(part.data);
      const type = bytes && sniffImageType(bytes);
      return bytes && type ? new Blob([bytes as Uint8Array<ArrayBuffer>], { type }) : null;
    },
  };
}
