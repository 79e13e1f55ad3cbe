// Display titles (§0.5.4) and the title a new session takes from its first message (§0.4.1).
import type { Entry, Header, TitleSlot } from '../schema/types.ts';

/** The parts of a session `displayTitle` looks at (a ParsedSession or a writer's Session). */
export interface Titled {
  titleSlot?: TitleSlot | null;
  header: Header | null;
  entries: readonly Entry[];
}

/**
 * A session's display title: omp slot title → last `title_change` → last `session_info.name`
 * (an empty name clears it) → header `title` → null (the UI may fall back to the first user message).
 */
export function displayTitle(session: Titled): string | null {
  const titles = createTitleReader();
  for (const e of session.entries) titles.see(e);
  return titles.title(session);
}

/** `displayTitle` gathered entry by entry (a session held in memory, appended to). */
export function createTitleReader() {
  let change: string | null = null;
  let name: string | null = null;
  return {
    see(e: Entry): void {
      if (e.type === 'title_change' && typeof e.title === 'string' && e.title !== '') change = e.title;
      else if (e.type === 'session_info') name = typeof e.name === 'string' && e.name.trim() !== '' ? e.name.trim() : null;
    },
    title(session: Pick<Titled, 'titleSlot' | 'header'>): string | null {
      if (session.titleSlot && session.titleSlot.title !== '') return session.titleSlot.title;
      if (change !== null) return change;
      if (name !== null) return name;
      const title = session.header?.title;
      return typeof title === 'string' && title !== '' ? title : null;
    },
  };
}

/** A title from typed text: its first non-empty line, trimmed, at most 80 code points; null when empty. */
export function titleFromText(text: string): string | null {
  const line = text.split('\n').find((l) => l.trim() !== '');
  if (line === undefined) return null;
  const points = Array.from(line.trim());
  return points.length > 80 ? points.slice(0, 80).join('') : points.join('');
}

/**
 * A title from a Claude Code metadata record kept as a custom entry, for a session with no message
 * yet: `teleported-from` (a web session carried to the terminal) names its branch. Null for others.
 */
export function metadataTitle(entry: Record<string, unknown>): string | null {
  if (entry.customType !== 'claude-code:teleported-from') return null;
  const data = entry.data as { branch?: unknown } | undefined;
  const branch = typeof data?.branch === 'string' && data.branch.trim() ? data.branch.trim() : null;
  return branch ? `Carried from Claude Code on the web (branch ${branch})` : 'Carried from Claude Code on the web';
}

/**
 * A title as plain words: markdown marks a first message often starts with (`## `, `**bold**`,
 * `_em_`, `` `code` ``, `[text](url)`, `> `, `- `) dropped, spaces collapsed.
 */
export function plainTitle(text: string): string {
  return (
    text
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/(\*\*|~~|`+)(.+?)\1/g, '$2')
      // `__` emphasis never opens or closes inside a word (CommonMark): `a.__b=1; c.__d` stays as it is.
      .replace(/(?<!\w)__(?=\S)(.+?)(?<=\S)__(?!\w)/g, '$1')
      .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s).,:;!?]|$)/g, '$1$2')
      .replace(/(^|\n)\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+(?=\S))/g, '$1')
      .replace(/\s+/g, ' ')
      .trim()
  );
}
