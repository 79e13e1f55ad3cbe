import type { ComponentChildren, ComponentType } from 'preact';
import type { ReaderLibrary } from './reader/Reader.tsx';
import { appReaderLibrary } from './reader/reader-library.ts';
import { useEffect } from 'preact/hooks';
import { signal, useSignal } from '@preact/signals';
import { DropZone } from './library/DropZone.tsx';
import { ImportPanel } from './library/ImportPanel.tsx';
import { InstallButton } from './library/InstallButton.tsx';
import { LibraryScreen } from './library/LibraryScreen.tsx';
import { LinkedFolders } from './linked/LinkedFolders.tsx';
import { SettingsPanel } from './library/SettingsPanel.tsx';
import { ShareHost } from './share/ShareHost.tsx';
import { Toasts } from './library/Toasts.tsx';
import { UpdateBanner } from './library/UpdateBanner.tsx';
import { ExportMenu } from './reader/panels/ExportMenu.tsx';
import { goBack, navigate, route, type Route } from './router.ts';
import { dropUsagePrerender, prepareUsage, prerenderUsage, UsageHost, usagePrerender } from './usage-host.tsx';
import { whenIdle } from './idle.ts';

// Whether the library has been shown (then it is kept under the Usage screen), and the Usage
// screen (then it is kept, hidden, under the library: drawing it again costs more than keeping it).
let libraryKept = false;
let usageKept = false;
// One element for the library, so a change of route does not re-render its thousands of cards
// (Preact skips an element it has seen before; the library follows its own signals).
const LIBRARY = <LibraryScreen />;

/** The app shell: header, the library or a reader, import report, update prompt, messages. */
export function App() {
  const settingsOpen = useSignal(false);
  const current = route.value;
  if (current.name === 'library') libraryKept = true;
  if (current.name === 'usage') usageKept = true;
  // The reader's chunk is fetched and compiled while the library is idle, so choosing a session
  // waits only for the session (about a tenth of a second less on a phone-class CPU); then the
  // Usage screen's chunk and first report (usage-host.tsx), so its first open only draws.
  // It is then drawn, hidden, ahead of its first open; again after the reader (which unmounts it).
  const onReader = current.name === 'reader';
  const Rehearsal = rehearsal.value;
  useEffect(() => {
    if (onReader) {
      dropUsagePrerender();
      // A real open warms the reader itself: a rehearsal it cut short is not drawn again on the way back.
      rehearsal.value = null;
    }
    void whenIdle()
      .then(() => preloadReader())
      .then(() => {
        if (!onReader) rehearseReader();
      })
      .catch(() => undefined)
      .then(() => (onReader ? prepareUsage() : prerenderUsage()));
  }, [onReader]);
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
            <a class="usage-link" href="#/usage" aria-current={current.name === 'usage' ? 'page' : undefined}>
              Usage
            </a>
            <InstallButton />
            <button
              type="button"
              aria-expanded={settingsOpen.value}
              onClick={() => {
                settingsOpen.value = !settingsOpen.value;
              }}
            >
              Settings
            </button>
          </header>
          {settingsOpen.value && (
            <SettingsPanel
              onClose={() => {
                settingsOpen.value = false;
              }}
            />
          )}
          <ImportPanel />
          {/* Once shown, the library stays mounted (hidden) under Usage: tearing down and redrawing
              thousands of cards would cost more than the Usage screen itself. */}
          {(current.name !== 'usage' || libraryKept) && (
            <div class="library-host" hidden={current.name === 'usage'}>
              <LinkedFolders />
              {LIBRARY}
            </div>
          )}
          {/* After the library, so the page's first <main> is the library's while Usage waits hidden. */}
          {(usageKept || usagePrerender.value) && (
            <div class="usage-host" hidden={current.name !== 'usage'}>
              <UsageHost day={current.name === 'usage' ? current.day : undefined} hidden={current.name !== 'usage'} prerender={usagePrerender.value} />
            </div>
          )}
          {Rehearsal && (
            <Rehearsal
              onDone={() => {
                rehearsal.value = null;
              }}
            />
          )}
        </>
      )}
      <DropZone />
      <Toasts />
      <ShareHost />
    </>
  );
}

/** What src/ui/reader/Reader.tsx exports (the reader engineer's component). */
interface ReaderModule {
  Reader: ComponentType<{
    id: string;
    leafId?: string;
    entryId?: string;
    find?: string;
    onNavigate(r: { leafId?: string; entryId?: string }): void;
    onBack(): void;
    actions?: ComponentChildren;
    library?: ReaderLibrary;
  }>;
}

// A glob rather than a plain import: the reader loads in its own chunk after the library, and
// the app still builds while the reader is not in this branch (the glob then matches nothing).
const readerModules = import.meta.glob<ReaderModule>('./reader/Reader.tsx');
const loadReader = Object.values(readerModules)[0];
let readerModule: ReaderModule | null = null;
let readerLoading: Promise<ReaderModule> | null = null;

// The reader's rehearsal (reader/rehearsal/rehearsal.tsx): its own chunk, after the reader's.
const rehearsalModules = import.meta.glob<{ ReaderRehearsal: ComponentType<{ onDone(): void }> }>('./reader/rehearsal/rehearsal.tsx');
const loadRehearsal = Object.values(rehearsalModules)[0];
/** The reader being rehearsed, hidden, under the library (null when not, or no longer). */
const rehearsal = signal<ComponentType<{ onDone(): void }> | null>(null);
let rehearsed = false;

/** Rehearses the reader once a page load, so its first real open does not pay for first runs (its code, style rules, fonts). */
function rehearseReader() {
  if (rehearsed || !loadRehearsal) return;
  rehearsed = true;
  loadRehearsal().then(
    (m) => {
      if (route.peek().name !== 'reader') rehearsal.value = m.ReaderRehearsal;
    },
    () => undefined,
  );
}

/** Loads the reader's chunk once (a failed load may be tried again). */
function preloadReader(): Promise<ReaderModule> {
  if (!loadReader) return Promise.reject(new Error('The reader is not in this build.'));
  readerLoading ??= loadReader().then(
    (m) => (readerModule = m),
    (e) => {
      readerLoading = null;
      throw e;
    },
  );
  return readerLoading;
}

/** Mounts the reader for `#/s/<id>` routes; the route keeps its branch and entry. */
function ReaderHost({ route }: { route: Extract<Route, { name: 'reader' }> }) {
  const mod = useSignal<ReaderModule | null>(readerModule);
  const failed = useSignal(false);
  useEffect(() => {
    if (!mod.value)
      preloadReader().then(
        (m) => {
          mod.value = m;
        },
        () => {
          failed.value = true;
        },
      );
  }, []);
  const back = () => goBack({ name: 'library' });
  if (!loadReader || failed.value) {
    return (
      <main class="library">
        <button type="button" onClick={back}>
          ← Library
        </button>
        <p role="alert">The reader could not be loaded.</p>
      </main>
    );
  }
  if (!mod.value) return <main class="library" aria-busy="true" />;
  const { Reader } = mod.value;
  return (
    <Reader
      key={route.id}
      id={route.id}
      leafId={route.leafId}
      entryId={route.entryId}
      find={route.find}
      onBack={back}
      actions={<ExportMenu id={route.id} leafId={route.leafId} />}
      library={appReaderLibrary}
      onNavigate={(next) => navigate({ name: 'reader', id: route.id, ...next }, { replace: true })}
    />
  );
}
