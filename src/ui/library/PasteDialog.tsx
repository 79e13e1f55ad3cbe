import { useEffect, useRef } from 'preact/hooks';
import { useSignal } from '@preact/signals';
import { importText } from '../models/imports.ts';
import './library.css';

/** A text box for pasting a session's JSONL (phones share sessions as text). */
export function PasteDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const text = useSignal('');
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const submit = (e: Event) => {
    e.preventDefault();
    if (text.value.trim()) void importText(text.value);
    dialog.current?.close();
  };
  return (
    <dialog ref={dialog} class="paste-dialog" aria-labelledby="paste-title" onClose={onClose}>
      <form method="dialog" onSubmit={submit}>
        <h2 id="paste-title">Paste a session</h2>
        <p class="muted">
          Paste the contents of a pi or omp <code>.jsonl</code> session file. You can also paste anywhere on the library screen.
        </p>
        <label class="visually-hidden" for="paste-text">
          Session JSONL
        </label>
        <textarea
          id="paste-text"
          rows={8}
          spellcheck={false}
          value={text.value}
          onInput={(e) => {
            text.value = (e.target as HTMLTextAreaElement).value;
          }}
          placeholder={'{"type":"session","version":3,…}'}
        />
        <div class="dialog-actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={!text.value.trim()}>
            Import
          </button>
        </div>
      </form>
    </dialog>
  );
}
