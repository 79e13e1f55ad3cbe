import { groups, listError, loaded, query, sessions } from '../models/library.ts';
import { storage } from '../models/storage.ts';
import { EmptyState } from './EmptyState.tsx';
import { ImportActions } from './ImportActions.tsx';
import { LibraryList } from './LibraryList.tsx';
import { LibraryToolbar } from './LibraryToolbar.tsx';
import { SearchResults } from './SearchResults.tsx';
import { SelectionBar } from './SelectionBar.tsx';
import './library.css';

/** The library: sessions grouped by project, newest first, with sort and filter; while searching, the search results. */
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
      {query.value.trim() ? <SearchResults /> : <LibraryList groups={shown} />}
    </main>
  );
}
