import { useSignal } from '@preact/signals';
import type { ReaderComposerProps } from '../reader/Reader.tsx';
import { navigate } from '../router.ts';
import { Composer } from './Composer.tsx';

/**
 * The composer under a session in the reader. After a write the branch on screen is read again
 * (or, when it was not the file's latest branch, the new branch is opened); New chat turns it into
 * a composer for a session that does not exist yet, opened once its first turn is written.
 */
export function ReaderComposer({ id, leafId, followsLatest, refresh, appended, onNavigate, continueFrom, onContinueFrom }: ReaderComposerProps) {
  const fresh = useSignal(false);
  if (fresh.value) {
    return (
      <div class="composer-new">
        <p class="composer-new-head">
          New chat{' '}
          <button type="button" onClick={() => (fresh.value = false)}>
            Back to this session
          </button>
        </p>
        <Composer
          id={null}
          leafId={null}
          onWritten={(r) => {
            fresh.value = false;
            navigate({ name: 'reader', id: r.id });
          }}
        />
      </div>
    );
  }
  return (
    <Composer
      id={id}
      leafId={leafId}
      onNewChat={() => (fresh.value = true)}
      continueFrom={continueFrom}
      onContinueHere={() => onContinueFrom(null)}
      onWritten={(r) => {
        // A message from a chosen entry made a branch: the reader opens it.
        if ((continueFrom || r.branched) && !r.compacted) {
          onContinueFrom(null);
          onNavigate({ leafId: r.leafId });
        } else if (r.compacted) void refresh();
        else if (followsLatest) void appended();
        else onNavigate({ leafId: r.leafId });
      }}
    />
  );
}
