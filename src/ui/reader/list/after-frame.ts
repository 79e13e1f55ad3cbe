import { useLayoutEffect, useState } from 'preact/hooks';
import { postTask } from '../../markdown/scheduler.ts';

/** A task after the current one, without setTimeout's clamping. */
const nextTask = postTask();

/**
 * False for a component's first render, true from the task after the frame that draws it (a
 * hidden page, which draws no frame, waits until it is shown). Why: Chromium's autofill looks at
 * every form control (`<select>`, `<input>`, `<textarea>`) added to the page in a microtask of the
 * task that added it, and lays the whole page out to do so. A control that comes with a new
 * screen pulls the screen's first style and layout into the task that built it (the reader's
 * route change at 4× CPU: 58–346 ms of forced style and layout, no JS stack); added after the
 * frame, it costs the layout of itself.
 */
export function useAfterFirstFrame(): boolean {
  const [ready, setReady] = useState(false);
  useLayoutEffect(() => {
    let live = true;
    const frame = requestAnimationFrame(() =>
      nextTask(() => {
        if (live) setReady(true);
      }),
    );
    return () => {
      live = false;
      cancelAnimationFrame(frame);
    };
  }, []);
  return ready;
}
