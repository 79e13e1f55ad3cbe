import { useEffect, useRef } from 'preact/hooks';
import { READER_KEYS } from '../keys.ts';
import type { ReaderModel } from '../model.ts';
import './keys-help.css';

/** The reader's keys, opened with "?" (and from the navigator's "Keyboard" link); Escape or Close shuts it. */
export function KeysHelp({ model }: { model: ReaderModel }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    close.current?.focus();
    return () => before?.focus?.();
  }, []);
  const shut = () => {
    model.helpOpen.value = false;
  };
  return (
    <div class="rd-help-wrap">
      <button type="button" class="rd-help-scrim" tabIndex={-1} aria-label="Close the keyboard help" onClick={shut} />
      <div class="rd-help" role="dialog" aria-modal="true" aria-labelledby="rd-help-title">
        <div class="rd-help-head">
          <h2 id="rd-help-title">Keyboard</h2>
          <button type="button" ref={close} onClick={shut}>
            Close
          </button>
        </div>
        <dl>
          {READER_KEYS.map(([keys, what]) => (
            <div key={keys} class="rd-help-row">
              <dt>{keys}</dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
