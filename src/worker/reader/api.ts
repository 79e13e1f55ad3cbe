import { isObject } from '../../core/view/parts.ts';
import {
  buildContextView,
  buildSessionView,
  buildStats,
  chooseLeaf,
  findInBranch,
  imagesInBranch,
  type BranchImage,
  marksOf,
  positionOf,
  windowOf,
  type ContextView,
  type ItemFilter,
  type Marks,
  type RenderItem,
  type SessionView,
  type StatsView,
} from '../../core/view/index.ts';
import { lineBytes } from '../../core/envelope/envelopes.ts';
import type { Entry } from '../../core/schema/types.ts';
import type { CallContext } from '../protocol.ts';
import { ApiFailure } from '../protocol.ts';
import type { WorkerEnv } from '../env.ts';
import { decodeBase64, sniffImageType } from './image-bytes.ts';
import { createReaderCache, type OpenSession } from './cache.ts';

const FILTERS: ReadonlySet<string> = new Set(['all', 'no-tools', 'user', 'labelled']);
/** Most items one readItems call returns. */
const MAX_WINDOW = 500;
/** The markdown renderer (markdown-it and highlight.js, twice the rest of the worker in size), loaded on the first call so the worker starts as fast as before. */
let markdown: Promise<typeof import('./markdown.ts')> | null = null;

/** The markdown renderer, loaded once. */
function loadMarkdown(): Promise<typeof import('./markdown.ts')> {
  markdown ??= import('./markdown.ts');
  return markdown;
}

/** Most texts one renderMarkdown call converts. */
const MAX_MARKDOWN_TEXTS = 200;
const BLOB_REF = /^blob:sha256:([0-9a-f]{64})$/;

function filterOf(filter: unknown): ItemFilter {
  if (filter === undefined) return 'all';
  if (typeof filter !== 'string' || !FILTERS.has(filter)) throw new ApiFailure('invalid-input', `Unknown filter: ${String(filter)}`);
  return filter as ItemFilter;
}

/** The image part `part` of an entry: in message content, custom_message content, or bash `images`. */
function imagePartOf(entry: Record<string, unknown>, part: number): Record<string, unknown> | null {
  const message = isObject(entry.message) ? entry.message : null;
  for (const list of [message?.content, entry.content]) {
    const candidate = Array.isArray(list) ? list[part] : undefined;
    if (isObject(candidate) && candidate.type === 'image') return candidate;
  }
  const images = message?.images;
  const candidate = Array.isArray(images) ? images[part] : undefined;
  return isObject(candidate) ? candidate : null;
}

/** The model in effect on a branch: last default-role model_change, else the last assistant's. */
function modelOf(entries: readonly Entry[]): string | null {
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
  // Loaded a little after the worker starts (when it is idle), so neither the start nor the
  // opening of the first session waits for it.
  const warm = setTimeout(() => void loadMarkdown().catch(() => (markdown = null)), 1500) as unknown as { unref?: () => void };
  warm.unref?.();

  async function branchFor(params: { id: string; leafId?: string | null }) {
    const open: OpenSession = await cache.session(params.id);
    const leafId = chooseLeaf(open.source, params.leafId ?? null);
    return { open, source: open.source, branch: cache.branchOf(open, leafId), leafId };
  }

  return {
    /** The outline of a session for one branch (default: the file's leaf): counts, tree; never the whole file. */
    async openSession(params: { id: string; leafId?: string | null; entryId?: string | null; filter?: ItemFilter }, _ctx?: CallContext): Promise<SessionView> {
      // The page asks for the first screen's markdown right after this answer: the renderer loads
      // while the session's bytes are read, not after.
      void loadMarkdown().catch(() => {
        markdown = null;
      });
      const open = await cache.session(params.id);
      const leafId = chooseLeaf(open.source, params.leafId ?? null, params.entryId ?? null);
      return buildSessionView(open.source, cache.branchOf(open, leafId), filterOf(params.filter), params.entryId ?? null);
    },

    /** A window [start, end) of the branch's rendered items under a filter. */
    async readItems(
      params: { id: string; leafId?: string | null; start: number; end: number; filter?: ItemFilter },
      _ctx?: CallContext,
    ): Promise<RenderItem[]> {
      const { source, branch } = await branchFor(params);
      const start = Math.max(0, Math.floor(Number(params.start) || 0));
      const end = Math.min(start + MAX_WINDOW, Math.floor(Number(params.end) || 0));
      return windowOf(source, branch, filterOf(params.filter), start, end);
    },

    /** Positions of user messages, tool calls and errors under a filter (reads the whole branch once). */
    async sessionMarks(params: { id: string; leafId?: string | null; filter?: ItemFilter }, _ctx?: CallContext): Promise<Marks> {
      const { source, branch } = await branchFor(params);
      return marksOf(source, branch, filterOf(params.filter));
    },

    /** "What the model sees": the core's context for the branch, with what is left out and why. */
    async sessionContext(params: { id: string; leafId?: string | null; inputs?: Array<'text' | 'image' | 'pdf'> }, _ctx?: CallContext): Promise<ContextView> {
      const { source, branch, leafId } = await branchFor(params);
      const entries = branch.branch.map((i) => source.body(i));
      // Blob refs whose blob was imported count as images the model gets (bytes are not needed to show the context).
      const present = new Set<string>();
      for (const entry of entries) {
        const content = isObject(entry.message) ? entry.message.content : entry.content;
        if (!Array.isArray(content)) continue;
        for (const part of content) {
          const ref = isObject(part) && typeof part.data === 'string' ? BLOB_REF.exec(part.data) : null;
          if (ref && !present.has(part.data as string) && (await env.store.hasBlob(ref[1]))) present.add(part.data as string);
        }
      }
      return buildContextView(entries, leafId, (id) => positionOf(source, branch, 'all', id), modelOf(entries), {
        inputs: params.inputs,
        resolveBlob: (ref: string) => (present.has(ref) ? 'AA==' : null),
      });
    },

    /** Items (positions under the filter) whose text, thinking, tool arguments or output contain the query. */
    async findInSession(
      params: { id: string; leafId?: string | null; query: string; filter?: ItemFilter },
      _ctx?: CallContext,
    ): Promise<Array<{ index: number; entryId: string }>> {
      const { source, branch } = await branchFor(params);
      return findInBranch(source, branch, filterOf(params.filter), String(params.query ?? ''));
    },

    /** The pictures of the branch under a filter, in reading order (the full-screen viewer steps through them). */
    async branchImages(params: { id: string; leafId?: string | null; filter?: ItemFilter }, _ctx?: CallContext): Promise<BranchImage[]> {
      const { source, branch } = await branchFor(params);
      return imagesInBranch(source, branch, filterOf(params.filter));
    },

    /** Totals for the branch and the whole file, per model, and the context size over the turns. */
    async sessionStats(params: { id: string; leafId?: string | null }, _ctx?: CallContext): Promise<StatsView> {
      const { source, branch } = await branchFor(params);
      const all: Entry[] = [];
      for (let i = 0; i < source.count; i++) all.push(source.body(i));
      return buildStats(
        all,
        branch.branch.map((i) => source.body(i)),
      );
    },

    /** The raw line of one entry, as it is in the file. */
    async entryJson(params: { id: string; entryId: string }, _ctx?: CallContext): Promise<string> {
      const { source } = await cache.session(params.id);
      const at = source.index.indexById.get(params.entryId);
      if (at === undefined) throw new ApiFailure('not-found', `No entry ${params.entryId} in this session.`);
      const [bytes, start, end] = lineBytes(source.index, at);
      return new TextDecoder().decode(bytes.subarray(start, end));
    },

    /**
     * Markdown texts as HTML, in order (see markdown.ts: raw HTML off, http(s)/mailto links only);
     * code blocks coloured; '' for a text too large to render. The page asks for what comes on screen, so its main
     * thread never parses markdown.
     */
    async renderMarkdown(params: { texts: string[] }, _ctx?: CallContext): Promise<string[]> {
      const texts = params?.texts;
      if (!Array.isArray(texts) || texts.length > MAX_MARKDOWN_TEXTS) throw new ApiFailure('invalid-input', `Give up to ${MAX_MARKDOWN_TEXTS} texts.`);
      return (await loadMarkdown()).markdownToHtmlAll(texts);
    },

    /**
     * An image as a Blob typed by what its bytes are (omp blob refs resolved through the store), or
     * null when it is missing or its bytes are not a raster image (SVG and anything else included).
     */
    async imageBlob(params: { id: string; entryId: string; part: number }, _ctx?: CallContext): Promise<Blob | null> {
      const { source } = await cache.session(params.id);
      const at = source.index.indexById.get(params.entryId);
      const part = at === undefined ? null : imagePartOf(source.body(at), Number(params.part));
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
