import type { ComponentChildren, ComponentType } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { SessionView } from '../../core/view/types.ts';
import { whenIdle } from '../idle.ts';
import { ContextPanel } from './panels/ContextPanel.tsx';
import { FindBar } from './panels/FindBar.tsx';
import { KeysHelp } from './panels/KeysHelp.tsx';
import { BranchIcon, SearchIcon, ViewIcon } from './icons.tsx';
import { READER_KEYS, useReaderKeys } from './keys.ts';
import { createReaderModel, type LabelUi } from './model.ts';
import { useAfterFirstFrame } from './list/after-frame.ts';
import { StatsPanel } from './panels/StatsPanel.tsx';
import { ForkBanner, ParentBanner } from './panels/Subagents.tsx';
import { ReaderToolbar } from './panels/Toolbar.tsx';
import { agentLabel } from '../../core/write/agent.ts';
import { Tree } from './panels/Tree.tsx';
import { Transcript } from './Transcript.tsx';
import { ImageViewer } from './viewer/ImageViewer.tsx';
import './reader.css';
import './side.css';

/** Props the app mounts the reader with (route `#/s/<id>?leaf=…&entry=…`). */
export interface ReaderProps {
  id: string;
  leafId?: string;
  entryId?: string;
  /** Opens find with this text (a search hit's link). */
  find?: string;
  onNavigate(route: { leafId?: string; entryId?: string }): void;
  /** Back to the library (the share page has none: no back button). */
  onBack?(): void;
  /** More buttons for the bar (the app's export menu). */
  actions?: ComponentChildren;
  /** Shows this view (in an idle period after mounting) instead of opening `id`, with no keyboard shortcuts: the rehearsal's (rehearsal.tsx). */
  sample?: SessionView;
  /**
   * What the library around the reader does with a session (the app's: reader-library.ts). Without it
   * (the share page: a copy with no library) there is no share button, no branch export and no labels.
   */
  library?: ReaderLibrary;
}

/** The library's actions on the session being read. */
export interface ReaderLibrary {
  share(target: { id: string; title: string; leafId?: string; empty?: boolean }): void;
  exportBranch(id: string, leafId?: string): void;
  /** The label editor (entries labelled in the library's copy of the file). */
  labels: LabelUi;
  /** The composer under the transcript (the app's: continue the session with the user's model key). */
  Composer?: ComponentType<ReaderComposerProps>;
}

/** What the reader hands the library's composer. */
export interface ReaderComposerProps {
  id: string;
  /** The last entry on screen (a message continues from there). */
  leafId: string | null;
  /** The branch on screen ends at the file's leaf. */
  followsLatest: boolean;
  /** Re-reads the branch on screen after a write. */
  refresh(): Promise<void>;
  /** Adds the rows of a turn written after the branch on screen, and brings them on screen. */
  appended(): Promise<void>;
  onNavigate(route: { leafId?: string; entryId?: string }): void;
  /** The entry chosen with "Continue from here" (the next message starts a branch there), or null. */
  continueFrom: { entryId: string; line: number } | null;
  /** Chooses (or, with null, forgets) the entry the next message continues from. */
  onContinueFrom(at: { entryId: string; line: number } | null): void;
}

/** The reader: one session on screen, its branches, its context and stats, find and keyboard jumps. */
export function Reader({ id, leafId, entryId, find, onNavigate, onBack, actions, sample, library }: ReaderProps) {
  const model = useMemo(() => createReaderModel(id, { labels: library?.labels, composer: Boolean(library?.Composer) }), [id]);
  const opened = useRef<string | null>(null);

  useEffect(() => {
    if (sample) {
      // As an open does: the page first, the view in a later task.
      let live = true;
      void whenIdle().then(() => live && model.show(sample));
      return () => {
        live = false;
      };
    }
    const key = `${leafId ?? ''}`;
    if (opened.current === key && model.view.value) {
      if (entryId) void model.reveal(entryId);
      return;
    }
    opened.current = key;
    // Find is set before opening: the model runs it once the session is on screen.
    if (find && !model.query.value) {
      model.findOpen.value = true;
      model.query.value = find;
    }
    void model.open(leafId, entryId);
  }, [model, leafId, entryId]);

  useReaderKeys(model, !sample);
  // The filter's <select> comes after the page's first frame (see useAfterFirstFrame: a form
  // control added with the page makes Chromium lay the whole page out inside the route change's task).
  const controls = useAfterFirstFrame();

  const view = model.view.value;
  const tab = model.tab.value;
  const treeOpen = model.treeOpen.value;
  // On a phone the bar is one row; the tabs, filter, toggles and branches are one tap away (reader.css).
  const [viewOpen, setViewOpen] = useState(false);
  const chooseLeaf = (leaf: string) => {
    model.treeOpen.value = false;
    onNavigate({ leafId: leaf });
  };

  // In the bar from 481 px, in the view options on a phone (reader.css); a new element each place.
  const branchesButton = () => (
    <button
      type="button"
      class="rd-branches-btn"
      aria-expanded={treeOpen}
      aria-controls="rd-side"
      onClick={() => {
        model.treeOpen.value = !treeOpen;
      }}
    >
      <BranchIcon /> <span class="rd-sr-narrow">Branches</span> {view ? view.leafCount : ''}
    </button>
  );

  return (
    <div class={`rd ${treeOpen ? 'tree-open' : ''}`}>
      <header class={`rd-head ${viewOpen ? 'view-open' : ''}`}>
        <div class="rd-bar">
          {onBack && (
            <button type="button" class="rd-icon" onClick={onBack} aria-label="Back to the library">
              ←
            </button>
          )}
          <h1 class="rd-title" title={view?.title}>
            {view?.title ?? 'Opening…'}
          </h1>
          <button
            type="button"
            class="rd-icon"
            aria-label="Find in session"
            aria-pressed={model.findOpen.value}
            onClick={() => {
              model.findOpen.value = !model.findOpen.value;
            }}
          >
            <SearchIcon />
          </button>
          {library && (
            <button
              type="button"
              class="rd-icon rd-share-btn"
              aria-label="Share a copy"
              title="Share a copy"
              disabled={!view}
              onClick={() => view && library.share({ id, title: view.title, leafId: view.leafId ?? undefined, empty: !view.leafId })}
            >
              ⇪
            </button>
          )}
          {branchesButton()}
          <button
            type="button"
            class="rd-icon rd-view-btn"
            aria-label="View options"
            aria-expanded={viewOpen}
            aria-controls="rd-toolbar"
            onClick={() => setViewOpen(!viewOpen)}
          >
            <ViewIcon />
          </button>
          {actions}
        </div>
        {model.readOnly.value && (
          <p class="rd-foreign" role="note">
            <span class="badge agent">{agentLabel(model.family.value?.self?.agent)}</span> Written by {agentLabel(model.family.value?.self?.agent)} — read-only
            here; Export as a pi session to continue it in pi.
          </p>
        )}
        <ReaderToolbar model={model} controls={controls}>
          {branchesButton()}
        </ReaderToolbar>
      </header>
      <ParentBanner model={model} />
      <ForkBanner model={model} />
      {model.findOpen.value && tab === 'transcript' && (
        <FindBar
          model={model}
          onClose={() => {
            model.findOpen.value = false;
          }}
        />
      )}
      {model.viewer.value && <ImageViewer model={model} />}
      {model.helpOpen.value && <KeysHelp model={model} />}
      <div class="rd-body">
        <aside id="rd-side" class="rd-side" aria-label="Branch navigator">
          <Tree model={model} onChoose={chooseLeaf} />
          {view?.leafId && library && (
            <div class="rd-side-actions">
              <button type="button" onClick={() => library.exportBranch(id, view.leafId ?? undefined)}>
                Export this branch
              </button>
            </div>
          )}
          <details class="rd-keys">
            <summary>Keyboard</summary>
            <dl>
              {READER_KEYS.map(([keys, what]) => (
                <>
                  <dt key={keys}>{keys}</dt>
                  <dd>{what}</dd>
                </>
              ))}
            </dl>
          </details>
        </aside>
        {treeOpen && (
          <button
            type="button"
            class="rd-scrim"
            aria-label="Close branches"
            onClick={() => {
              model.treeOpen.value = false;
            }}
          />
        )}
        <main class="rd-main">
          <div id="rd-main" class="rd-panel-host" role="tabpanel" aria-labelledby={`rd-tab-${tab}`}>
            {model.error.value && (
              <p class="rd-pad rd-error" role="alert">
                {model.error.value}
              </p>
            )}
            {!view && !model.error.value && (
              <p class="rd-pad muted" role="status">
                Opening the session…
              </p>
            )}
            {view && view.problems.length > 0 && tab === 'transcript' && (
              <details class="rd-problems">
                <summary>
                  {view.problems.length} problem{view.problems.length === 1 ? '' : 's'} reading this file
                </summary>
                <ul>
                  {view.problems.map((p, i) => (
                    <li key={i}>
                      line {p.line}: {p.message}
                    </li>
                  ))}
                </ul>
              </details>
            )}
            {view && tab === 'transcript' && <Transcript model={model} />}
            {view && tab === 'context' && <ContextPanel model={model} />}
            {view && tab === 'stats' && (
              <div class="rd-scroll" role="region" tabIndex={0} aria-label="Stats">
                <StatsPanel model={model} />
              </div>
            )}
          </div>
          {view && tab === 'transcript' && library?.Composer && !model.readOnly.value && (
            <library.Composer
              id={id}
              leafId={view.leafId}
              followsLatest={view.leafId === view.defaultLeafId}
              refresh={model.refresh}
              appended={model.appended}
              onNavigate={onNavigate}
              continueFrom={model.continueFrom.value}
              onContinueFrom={(at) => {
                model.continueFrom.value = at;
              }}
            />
          )}
        </main>
      </div>
    </div>
  );
}
