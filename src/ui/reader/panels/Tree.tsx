import type { ReaderModel } from '../model.ts';
import { BranchIcon } from '../icons.tsx';
import { plural } from '../../models/format.ts';
import './tree.css';

/** The branch navigator: the session's tree compressed into runs, leaves selectable, the active path marked. */
export function Tree({ model, onChoose }: { model: ReaderModel; onChoose: (leafId: string) => void }) {
  const view = model.view.value;
  if (!view) return null;
  return (
    <nav class="rd-tree" aria-label="Branches">
      <h2 class="rd-tree-title">
        Branches <span class="muted">({view.leafCount})</span>
      </h2>
      <ol class="rd-tree-list">
        {view.tree.map((segment) => {
          const depth = Math.min(segment.depth, 8);
          const current = segment.leafId !== undefined && segment.leafId === view.leafId;
          const text = segment.preview || plural(segment.count, 'entry', 'entries');
          return (
            <li key={segment.firstId} class={`rd-seg ${segment.active ? 'active' : ''} d${depth}`}>
              {segment.leafId ? (
                <button type="button" class="rd-seg-btn" aria-current={current ? 'true' : undefined} onClick={() => onChoose(segment.leafId!)}>
                  <span class="rd-seg-text">{text}</span>
                  <span class="rd-seg-count">{segment.count}</span>
                </button>
              ) : (
                <div class="rd-seg-fork">
                  <span class="rd-seg-text">{text}</span>
                  <span class="rd-seg-count">
                    {segment.count} <BranchIcon />
                  </span>
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
