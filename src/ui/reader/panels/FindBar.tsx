import { useEffect, useRef } from 'preact/hooks';
import type { ReaderModel } from '../model.ts';
import './find.css';

/** Find in session: text, thinking, tool arguments and output; Enter/Shift+Enter step through hits. */
export function FindBar({ model, onClose }: { model: ReaderModel; onClose: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    input.current?.focus();
  }, []);
  const hits = model.hits.value;
  const at = model.hitAt.value;
  return (
    <div class="rd-find" role="search">
      <input
        ref={input}
        type="search"
        aria-label="Find in session"
        placeholder="Find in session"
        value={model.query.value}
        onInput={(e) => {
          const text = (e.currentTarget as HTMLInputElement).value;
          model.query.value = text;
          clearTimeout(timer.current);
          timer.current = setTimeout(() => void model.find(text), 200);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            model.stepHit(e.shiftKey ? -1 : 1);
          }
          if (e.key === 'Escape') {
            e.preventDefault();
            onClose();
          }
        }}
      />
      <span class="rd-find-count" role="status" aria-live="polite">
        {!model.query.value.trim()
          ? ''
          : model.foundFor.value !== model.query.value
            ? 'Searching…'
            : hits.length
              ? `${at + 1} of ${hits.length}`
              : 'No matches'}
      </span>
      <button type="button" onClick={() => model.stepHit(-1)} disabled={!hits.length} aria-label="Previous match">
        ↑
      </button>
      <button type="button" onClick={() => model.stepHit(1)} disabled={!hits.length} aria-label="Next match">
        ↓
      </button>
      <button type="button" onClick={onClose} aria-label="Close find">
        ✕
      </button>
    </div>
  );
}
