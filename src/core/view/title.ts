import type { ParsedSession } from '../types.ts';
import { contentText, isObject, str } from './parts.ts';

/**
 * The title the reader shows: omp slot title, last title_change, last session_info name, header
 * title (spec §0.5.4), else the first line of the first user message, else "Untitled session".
 */
export function displayTitleOf(session: ParsedSession): string {
  if (session.titleSlot && typeof session.titleSlot.title === 'string' && session.titleSlot.title.trim()) return session.titleSlot.title.trim();
  let changed: string | null = null;
  let named: string | null = null;
  let firstUser: string | null = null;
  for (const entry of session.entries) {
    if (entry.type === 'title_change' && typeof entry.title === 'string') changed = entry.title;
    else if (entry.type === 'session_info') named = str(entry.name).trim() || null;
    else if (firstUser === null && entry.type === 'message' && isObject(entry.message) && entry.message.role === 'user') {
      firstUser = contentText(entry.message.content).replace(/<attachment[\s\S]*?<\/attachment>/g, '').trim().split('\n')[0].slice(0, 80) || null;
    }
  }
  const header = typeof session.header?.title === 'string' && session.header.title.trim() ? session.header.title.trim() : null;
  return changed ?? named ?? header ?? firstUser ?? 'Untitled session';
}
