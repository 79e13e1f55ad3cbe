import { watchLaunches, watchPaste } from '../platform.ts';
import { route, navigate } from '../router.ts';
import { importFiles, importShared, importText, looksLikeJsonl } from './imports.ts';
import { refreshLibrary, watchLibraryChanges } from './library.ts';
import { loadSettings } from './settings.ts';
import { refreshStorage } from './storage.ts';
import { showToast } from './toasts.ts';
import { watchInstall } from './install.ts';
import { watchLinkedFolders } from '../linked/folders.ts';
import { followSync } from '../sync/model.ts';

/** Starts the page's models and platform listeners (once, before the first render). */
export function startModels(): void {
  watchInstall();
  void loadSettings();
  watchLibraryChanges();
  void refreshLibrary();
  void refreshStorage();
  watchLinkedFolders();
  followSync();
  watchLaunches(async (files) => {
    const report = await importFiles(files, 'launch');
    const opened = report?.items.filter((i) => i.id && i.outcome !== 'rejected') ?? [];
    if (opened.length === 1) navigate({ name: 'reader', id: opened[0].id! });
  });
  watchPaste((pasted) => {
    if (route.value.name !== 'library') return;
    if ('files' in pasted) void importFiles(pasted.files, 'paste');
    else if (looksLikeJsonl(pasted.text)) void importText(pasted.text);
    else showToast('That text does not look like a session (JSONL).');
  });
  takeShareFromRoute();
  window.addEventListener('hashchange', takeShareFromRoute);
}

/** `#/import?share=<key>`: the service worker stored shared files; import them, show the library. */
function takeShareFromRoute(): void {
  const current = route.value;
  if (current.name !== 'import') return;
  navigate({ name: 'library' }, { replace: true });
  if (current.share) void importShared(current.share);
}
