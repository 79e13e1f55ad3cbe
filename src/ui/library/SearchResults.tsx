import type { EntryHit, SessionResult, SnippetPart } from '../models/calls.ts';
import { formatDate, plural, projectName } from '../models/format.ts';
import { query } from '../models/library.ts';
import { indexing, results, resultsFor, search, searchError, searching, searchSort, type SearchSort } from '../models/search.ts';
import { formatRoute, navigate, type Route } from '../router.ts';
import './search.css';

const KIND: Record<EntryHit['kind'], string> = {
  user: 'You',
  assistant: 'Assistant',
  tool: 'Tool output',
  bash: 'Shell',
  summary: 'Summary',
  compaction: 'Compaction',
  notice: 'Notice',
  label: 'Label',
  title: 'Title',
};

/** A snippet as text nodes, the matched words in <mark> (never HTML: the text came from a session file). */
export function Snippet({ parts }: { parts: SnippetPart[] }) {
  return <>{parts.map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : p.text))}</>;
}

// The reader at the hit, with find set to what matched there.
function hitRoute(s: SessionResult, hit?: EntryHit): Extract<Route, { name: 'reader' }> {
  const mark = hit?.parts.find((p) => p.mark)?.text;
  return { name: 'reader', id: s.id, ...(hit ? { entryId: hit.entryId } : {}), ...(mark ? { find: mark } : {}) };
}

function Link({ to, children, class: cls }: { to: Route; children: preact.ComponentChildren; class?: string }) {
  return (
    <a
      class={cls}
      href={formatRoute(to)}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}

function SessionHits({ s }: { s: SessionResult }) {
  return (
    <li class="search-session" data-session-id={s.id}>
      <Link to={hitRoute(s, s.hits[0])} class="session-title">
        {s.titleParts ? <Snippet parts={s.titleParts} /> : s.title || 'Untitled session'}
      </Link>
      <p class="facts">
        {[projectName(s.cwd), s.date ? formatDate(s.date) : '', s.hitCount > 1 ? plural(s.hitCount, 'match', 'matches') : ''].filter(Boolean).join(' · ')}
      </p>
      {s.hits.length > 0 && (
        <ul class="search-hits">
          {s.hits.map((h) => (
            <li key={h.entryId + h.kind}>
              <Link to={hitRoute(s, h)} class="search-hit">
                <span class="search-kind">{KIND[h.kind]}</span> <Snippet parts={h.parts} />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** Search results: sessions by relevance or date, each with its matching entries as marked snippets. */
export function SearchResults() {
  const r = results.value;
  const progress = indexing.value;
  return (
    <section class="search-results" aria-label="Search results">
      <div class="search-head">
        <p class="muted" role="status">
          {progress
            ? `${progress.label}: ${progress.done} of ${plural(progress.total, 'session')}…`
            : r
              ? `${r.total === 0 ? 'Nothing' : plural(r.total, 'session')} found for “${resultsFor.value}”`
              : searching.value
                ? 'Searching…'
                : ''}
        </p>
        <select
          aria-label="Order results"
          value={searchSort.value}
          onChange={(e) => {
            searchSort.value = (e.target as HTMLSelectElement).value as SearchSort;
            void search(query.value);
          }}
        >
          <option value="relevance">Best match</option>
          <option value="date">Newest</option>
        </select>
      </div>
      {progress && <progress class="search-progress" max={progress.total} value={progress.done} aria-label="Building the search index" />}
      {searchError.value && <p role="alert">Search failed: {searchError.value}</p>}
      {r && r.unknown.length > 0 && <p class="muted">Not understood: {r.unknown.join(', ')}</p>}
      {r && (
        <ul class="sessions search-list">
          {r.sessions.map((s) => (
            <SessionHits key={s.id} s={s} />
          ))}
        </ul>
      )}
      {r?.more && (
        <button type="button" onClick={() => void search(query.value, { more: true })}>
          More results
        </button>
      )}
    </section>
  );
}
