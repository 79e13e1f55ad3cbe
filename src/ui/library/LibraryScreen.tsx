import { groups, hits, listError, loaded, query, sessions, snippets } from '../models/library.ts';
import { storage } from '../models/storage.ts';
import { projectName, plural } from '../models/format.ts';
import { EmptyState } from './EmptyState.tsx';
import { ImportActions } from './ImportActions.tsx';
import { LibraryToolbar } from './LibraryToolbar.tsx';
import { SelectionBar } from './SelectionBar.tsx';
import { SessionCard } from './SessionCard.tsx';

/** The library: sessions grouped by project, newest first, with search, sort and filter. */
export function LibraryScreen() {
  if (!loaded.value) return <main class="library" aria-busy="true" />;
  if (listError.value)
    return (
      <main class="library">
        <p role="alert">Could not read the library: {listError.value}</p>
      </main>
    );
  const memoryOnly = storage.value?.opfs === false && (
    <p class="advice" role="note">
      This browser gives the app no file storage here (a private window?): sessions open for now but are <strong>not kept</strong>.
    </p>
  );
  if (!sessions.value.length)
    return (
      <main class="library">
        {memoryOnly}
        <EmptyState />
      </main>
    );
  const shown = groups.value;
  return (
    <main class="library">
      {memoryOnly}
      <LibraryToolbar />
      <ImportActions compact />
      <SelectionBar />
      {hits.value && (
        <p class="muted" role="status">
          {shown.reduce((n, g) => n + g.sessions.length, 0)} found for “{query.value.trim()}”
        </p>
      )}
      {shown.map((group) => (
        <section class="project" key={group.cwd} aria-label={`Project ${projectName(group.cwd)}`}>
          <h2 class="project-title" title={group.cwd}>
            {projectName(group.cwd)} <span class="muted">{plural(group.sessions.length, 'session')}</span>
          </h2>
          <ul class="sessions">
            {group.sessions.map((s) => (
              <SessionCard key={s.id} session={s} hit={snippets.value.get(s.id)} />
            ))}
          </ul>
        </section>
      ))}
    </main>
  );
}
