import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { agePrompt, dismissAgePrompt, unlockAndImport } from './age-import.ts';

/** Asks for the password of .age files being imported. */
export function AgePrompt() {
  const dialog = useRef<HTMLDialogElement>(null);
  const pass = useSignal('');
  const waiting = agePrompt.value;
  useEffect(() => {
    if (waiting && !dialog.current?.open) dialog.current?.showModal();
  }, [waiting]);
  if (!waiting) return null;
  const names = waiting.files.map((f) => f.path).join(', ');
  return (
    <dialog ref={dialog} class="age-dialog" aria-labelledby="age-title" onClose={dismissAgePrompt}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (pass.value) void unlockAndImport(pass.value);
        }}
      >
        <h2 id="age-title">Password for {names}</h2>
        <p class="muted">{waiting.files.length === 1 ? 'This file is' : 'These files are'} encrypted (age). Nothing is stored until it opens.</p>
        <input
          type="password"
          aria-label="Password"
          autocomplete="current-password"
          value={pass.value}
          onInput={(e) => {
            pass.value = (e.currentTarget as HTMLInputElement).value;
          }}
        />
        {waiting.error && (
          <p role="alert" class="age-error">
            {waiting.error}
          </p>
        )}
        <div class="dialog-actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={!pass.value || waiting.busy}>
            {waiting.busy ? 'Opening…' : 'Open and import'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
