import { clearSelection, deleteSessions, selected } from '../models/library.ts';
import { exportAll, exportTargets } from '../models/exports.ts';
import { plural } from '../models/format.ts';

/** Actions on the ticked sessions: one bundle, or delete them all (with undo). */
export function SelectionBar() {
  const ids = [...selected.value];
  if (!ids.length) return null;
  const share = exportTargets().includes('share');
  return (
    <div class="selection-bar" role="region" aria-label="Selection">
      <span>{plural(ids.length, 'session')} selected</span>
      <button type="button" onClick={() => void exportAll(ids, 'download')}>
        Export bundle
      </button>
      {share && (
        <button type="button" onClick={() => void exportAll(ids, 'share')}>
          Share bundle
        </button>
      )}
      <button type="button" class="danger" onClick={() => void deleteSessions(ids)}>
        Delete
      </button>
      <button type="button" onClick={clearSelection}>
        Clear
      </button>
    </div>
  );
}
