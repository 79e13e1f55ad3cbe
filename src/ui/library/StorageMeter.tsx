import { sessions } from '../models/library.ts';
import { askToPersist, persistRefused, storage } from '../models/storage.ts';
import { storageFigures } from '../models/storage-figures.ts';
import { formatBytes, plural } from '../models/format.ts';

/** What the library holds (its own total), the browser's estimate where it can be true, and whether the browser keeps it for sure. */
export function StorageMeter() {
  const info = storage.value;
  if (!info) return null;
  const list = sessions.value;
  const figures = storageFigures(
    info,
    list.reduce((n, s) => n + s.size, 0),
  );
  const size = (n: number) => formatBytes(n).replace(' ', '\u00a0');
  return (
    <div class="storage-meter">
      <p class="storage-own">
        Sessions: {size(figures.stored)} in {plural(list.length, 'session')}
      </p>
      {figures.usage !== null && figures.quota !== null ? (
        <>
          <label for="storage-meter">
            Browser's estimate: {size(figures.usage)} of {size(figures.quota)} used
          </label>
          <meter id="storage-meter" min={0} max={1} value={figures.share ?? 0} low={0.7} high={0.9} optimum={0} />
        </>
      ) : (
        <p class="muted storage-estimate">
          {figures.usage !== null
            ? `Browser's estimate: ${size(figures.usage)} used; it does not say how much room is left.`
            : "The browser's estimate is not up to date (it counts less than the sessions hold), so it is not shown."}
        </p>
      )}
      {!info.opfs && <p class="warn-text">This browser has no private file storage here (private window?): sessions are opened in memory and not kept.</p>}
      {info.persistent ? (
        <p class="muted">Stored persistently: the browser will not clear it to make room.</p>
      ) : persistRefused.value ? (
        <p class="warn-text" role="status">
          The browser said no to keeping this data for sure. Your sessions stay, but if the device runs short of space the browser may delete them without
          asking. Keep a copy elsewhere (Export everything below); installing the app or using it often makes the browser more likely to agree later.
        </p>
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
