import { useEffect, useRef } from 'preact/hooks';
import { Reader } from '../Reader.tsx';
import { appReaderLibrary } from '../reader-library.ts';
import { REHEARSAL_VIEW } from './sample.ts';
import './rehearsal.css';

/**
 * The reader rehearsed, hidden, on a made-up session (rehearsal-sample.ts) while the library is idle:
 * the first open of a session runs code, style rules and fonts for the first time, which at 4× CPU
 * doubled its longest tasks (the worker's reply and the first frame: 45–50 ms against 25–30 ms on a
 * second open). Rehearsed, a real open only pays for itself. Laid out but never painted
 * (`visibility: hidden`, out of the accessibility tree and of focus); `onDone` once its rows and
 * their markdown are drawn (or after a few seconds).
 */
export function ReaderRehearsal({ onDone }: { onDone(): void }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    const t0 = performance.now();
    const drawn = () => {
      const el = host.current;
      return !!el?.querySelector('select') && !el.querySelector('[data-md="pending"]') && el.querySelectorAll('.vl-row').length >= REHEARSAL_VIEW.count;
    };
    const check = () => {
      if (!live) return;
      // One frame after everything is drawn: that frame lays it out.
      if (drawn() || performance.now() - t0 > 5000) requestAnimationFrame(() => live && onDone());
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
    return () => {
      live = false;
    };
  }, []);
  return (
    <div ref={host} class="rd-rehearsal">
      <Reader id={REHEARSAL_VIEW.id} sample={REHEARSAL_VIEW} onNavigate={() => undefined} library={appReaderLibrary} />
    </div>
  );
}
