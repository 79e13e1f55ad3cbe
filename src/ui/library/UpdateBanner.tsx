import { applyUpdate, updateAvailable } from '../sw-bridge.ts';

/** "Update available — reload": a new version waits until the user says so. */
export function UpdateBanner() {
  if (!updateAvailable.value) return null;
  return (
    <div class="update" role="alert">
      <span>Update available</span>
      <button type="button" onClick={applyUpdate}>
        Reload
      </button>
    </div>
  );
}
