import type { VNode } from 'preact';
import { useRef } from 'preact/hooks';
import { groups, listError, loaded, query, sessions } from '../models/library.ts';
import { route } from '../router.ts';
import { storage } from '../models/storage.ts';
import { Arriving } from './Arriving.tsx';
import { EmptyState } from './EmptyState.tsx';
import { ImportActions } from './ImportActions.tsx';
import { LibraryList } from './LibraryList.tsx';
import { LibraryToolbar } from './LibraryToolbar.tsx';
import { SearchResults } from './SearchResults.tsx';
import { SelectionBar } from './SelectionBar.tsx';
import './library.css';

/**
 * The library: sessions grouped by project, newest first, with sort and filter; while searching,
 * the search results. Hidden under the sync or Usage screen it is not drawn again (a sync bringing
 * sessions one after another would draw cards nobody sees): shown again, it draws the list as it is.
 */
export function LibraryScreen() {
  const kept = useRef<VNode | null>(null);
  const where = route.value.name;
  if ((where === 'sync' || where === 'usage') && kept.current) return kept.current;
  kept.current = drawLibrary();
  return kept.current;
}

function drawLibrary(): VNode {
  if (!loaded.value) return <main class="library" aria-busy="true" />;
  if (listError.value)
    return (
      <main class="library">
        <p role="alert">Could not read the library: {listError.value}</p>
      </main>
    );
  const memoryOnly = storage.value?.opfs === false && (
    <p class="advice" role="note">
      This browser gives the app no file storage here (a private window?): sessions open for now but are <strong>not kept</strong>
      {storage.value.memoryReason ? ` (${storage.value.memoryReason})` : ''}. Sync is off while it is so.
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
      <Arriving />
    </main>
  );
}
