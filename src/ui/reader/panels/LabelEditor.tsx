import { useEffect, useRef, useState } from 'preact/hooks';
import type { RenderItem } from '../../../core/view/types.ts';
import { TagIcon } from '../icons.tsx';
import type { ReaderModel } from '../model.ts';
import './label-editor.css';

/** The button that opens an entry's label form: always shown (a phone has no hover). */
export function LabelButton({ item, model, editing }: { item: RenderItem; model: ReaderModel; editing: boolean }) {
  return (
    <button
      type="button"
      class="rd-label-btn"
      aria-expanded={editing}
      aria-label={item.label ? `Change the label of #${item.line}` : `Label #${item.line}`}
      title={item.label ? 'Change the label' : 'Add a label'}
      onClick={() => {
        model.labelling.value = editing ? null : item.entryId;
      }}
    >
      <TagIcon />
    </button>
  );
}

/**
 * Adds, changes or clears an entry's label. Saving appends a `label` entry to the session's file,
 * as pi's appendLabelChange writes it (an empty label clears it, spec §2.9).
 */
export function LabelForm({ item, model }: { item: RenderItem; model: ReaderModel }) {
  const [text, setText] = useState(item.label ?? '');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const save = async (label: string) => {
    setBusy(true);
    setFailed(null);
    try {
      await model.setLabel(item.entryId, label);
    } catch (e) {
      setFailed(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  };
  const close = () => {
    model.labelling.value = null;
  };
  return (
    <form
      class="rd-label-form"
      aria-label={`Label of #${item.line}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save(text);
      }}
    >
      <input
        ref={input}
        type="text"
        aria-label="Label"
        placeholder="Label (e.g. the fix)"
        value={text}
        maxLength={200}
        onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            close();
          }
        }}
      />
      <button type="submit" class="primary" disabled={busy || !text.trim() || text.trim() === item.label}>
        Save
      </button>
      {item.label && (
        <button type="button" disabled={busy} onClick={() => void save('')}>
          Clear
        </button>
      )}
      <button type="button" onClick={close}>
        Cancel
      </button>
      {failed && (
        <p class="rd-error" role="alert">
          Could not save the label: {failed}
        </p>
      )}
    </form>
  );
}
