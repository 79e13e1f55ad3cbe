import { useEffect } from 'preact/hooks';
import type { ReaderModel } from '../model.ts';

/** The channel the worker announces written sessions on (open-store.ts). */
const CHANGES = 'rho-sessions';

/** Whether the transcript's list is scrolled to its bottom (a few pixels of slack). */
function atBottom(host: HTMLElement | null): boolean {
  const el = host?.querySelector<HTMLElement>('.vl');
  if (!el) return true;
  return el.scrollTop + el.clientHeight >= el.scrollHeight - 48;
}

/**
 * Follows the open session as it is written (a linked folder's agent, another tab): when the worker
 * announces it changed, new rows are added; at the bottom the reader follows them, scrolled up it
 * counts them for the "N new" pill. Changes that arrive while one is being read are folded into one more.
 */
export function useFollowLive(model: ReaderModel, host: () => HTMLElement | null): void {
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(CHANGES);
    let running: Promise<void> | null = null;
    let again = false;
    const run = () => {
      if (running) {
        again = true;
        return;
      }
      running = model.grow(atBottom(host())).finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
    };
    channel.addEventListener('message', (event: MessageEvent<{ type?: string; ids?: string[] }>) => {
      if (event.data?.type === 'changed' && event.data.ids?.includes(model.id)) run();
    });
    return () => channel.close();
  }, [model]);
}

/** "N new" when rows arrived while the reader was scrolled up; a click brings the first of them on screen. */
export function NewRowsPill({ model }: { model: ReaderModel }) {
  const fresh = model.fresh.value;
  if (!fresh) return null;
  return (
    <button type="button" class="rd-new-pill" onClick={() => model.showFresh()}>
      {fresh.count.toLocaleString()} new
    </button>
  );
}
