// A full search without an index: titles, then every session's message text read file by file,
// substring matching. Kept only as the search bench's baseline (`searchScan`).
import { text } from '../../core/index.ts';
import { CHUNK_SIZE } from '../../storage/chunks.ts';
import type { SessionStore } from '../../storage/types.ts';

/** One search result: a session, and the entry whose text matched (absent for a title match). */
export interface SearchHit {
  id: string;
  title: string | null;
  entryId?: string;
  snippet: string;
}

const SNIPPET = 60;
const PER_SESSION = 3;

function snippetAround(s: string, at: number, length: number): string {
  const from = Math.max(0, at - SNIPPET);
  const to = Math.min(s.length, at + length + SNIPPET);
  return (from > 0 ? '…' : '') + s.slice(from, to).replace(/\s+/g, ' ') + (to < s.length ? '…' : '');
}

/** The text of an entry a person would search: message text, summaries, custom message content. */
function searchableText(entry: Record<string, unknown>): string {
  if (entry.type === 'message' || entry.type === 'custom_message') return text(entry.type === 'message' ? entry.message : entry);
  if (typeof entry.summary === 'string') return entry.summary;
  return '';
}

/** Sessions matching `query` (case-insensitive): title hits, then text hits, newest sessions first. */
export async function searchLibrary(store: SessionStore, query: string, limit = 50, signal?: AbortSignal): Promise<SearchHit[]> {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const hits: SearchHit[] = [];
  const sessions = await store.list();
  for (const s of sessions) {
    if (s.title?.toLowerCase().includes(q)) hits.push({ id: s.id, title: s.title, snippet: s.title });
    if (hits.length >= limit) return hits;
  }
  for (const s of sessions) {
    signal?.throwIfAborted();
    let found = 0;
    const decoder = new TextDecoder();
    let carry = '';
    const onLine = (line: string) => {
      if (found >= PER_SESSION || !line.toLowerCase().includes(q)) return;
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(line);
      } catch {
        return;
      }
      const t = searchableText(value);
      const at = t.toLowerCase().indexOf(q);
      if (at < 0) return;
      found++;
      hits.push({ id: s.id, title: s.title, entryId: typeof value.id === 'string' ? value.id : undefined, snippet: snippetAround(t, at, q.length) });
    };
    for (let at = 0; at < s.size && found < PER_SESSION && hits.length < limit; at += CHUNK_SIZE) {
      const chunk = await store.readRange(s.id, at, Math.min(at + CHUNK_SIZE, s.size));
      const lines = (carry + decoder.decode(chunk, { stream: true })).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    }
    if (carry) onLine(carry + decoder.decode());
    if (hits.length >= limit) break;
  }
  return hits.slice(0, limit);
}
