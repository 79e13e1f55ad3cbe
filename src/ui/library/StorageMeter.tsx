import { askToPersist, storage } from '../models/storage.ts';
import { formatBytes } from '../models/format.ts';

/** How much of the device's allowance the library uses, and whether the browser keeps it for sure. */
export function StorageMeter() {
  const info = storage.value;
  if (!info) return null;
  const share = info.quota ? info.usage / info.quota : 0;
  return (
    <div class="storage-meter">
      <label for="storage-meter">
        Storage: {formatBytes(info.usage)} of {formatBytes(info.quota)} used
      </label>
      <meter id="storage-meter" min={0} max={1} value={share} low={0.7} high={0.9} optimum={0} />
      {!info.opfs && <p class="warn-text">This browser has no private file storage here (private window?): sessions are opened in memory and not kept.</p>}
      {info.persistent ? (
        <p class="muted">Stored persistently: the browser will not clear it to make room.</p>
      ) : (
        <p class="muted">
          The browser may clear this data when the device runs low on space.{' '}
          <button type="button" class="link" onClick={() => void askToPersist()}>
            Ask to keep it
          </button>
        </p>
      )}
    </div>
  );
}
