import { useSignal } from '@preact/signals';
import { DropZone } from './library/DropZone.tsx';
import { ImportPanel } from './library/ImportPanel.tsx';
import { InstallButton } from './library/InstallButton.tsx';
import { LibraryScreen } from './library/LibraryScreen.tsx';
import { SettingsPanel } from './library/SettingsPanel.tsx';
import { Toasts } from './library/Toasts.tsx';
import { UpdateBanner } from './library/UpdateBanner.tsx';
import { navigate, route, type Route } from './router.ts';

/** The app shell: header, the library or a reader, import report, update prompt, messages. */
export function App() {
  const settingsOpen = useSignal(false);
  const current = route.value;
  return (
    <>
      <UpdateBanner />
      {current.name === 'reader' ? (
        <ReaderHost route={current} />
      ) : (
        <>
          <header class="app-header">
            <a href="#/" class="brand">
              <img src="/icons/icon.svg" alt="" width="28" height="28" />
              <h1>Rho Sessions</h1>
            </a>
            <span class="spacer" />
            <InstallButton />
            <button type="button" aria-expanded={settingsOpen.value} onClick={() => { settingsOpen.value = !settingsOpen.value; }}>Settings</button>
          </header>
          {settingsOpen.value && <SettingsPanel onClose={() => { settingsOpen.value = false; }} />}
          <ImportPanel />
          <LibraryScreen />
        </>
      )}
      <DropZone />
      <Toasts />
    </>
  );
}

/** Mounts the reader for `#/s/<id>` routes. (Placeholder until src/ui/reader/Reader.tsx lands.) */
function ReaderHost({ route }: { route: Extract<Route, { name: 'reader' }> }) {
  return (
    <main class="library">
      <button type="button" onClick={() => navigate({ name: 'library' })}>← Library</button>
      <h2>Session {route.id}</h2>
      <p class="muted">The reader is not part of this build yet.</p>
    </main>
  );
}
