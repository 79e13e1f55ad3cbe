import { useSignal } from '@preact/signals';
import { pickFiles, pickFolder } from '../platform.ts';
import { importFiles } from '../models/imports.ts';
import { PasteDialog } from './PasteDialog.tsx';

/** The ways to bring sessions in by hand: files, a folder, pasted text. */
export function ImportActions({ compact = false }: { compact?: boolean }) {
  const pasting = useSignal(false);
  return (
    <div class={compact ? 'import-actions compact' : 'import-actions'}>
      <button type="button" onClick={async () => void importFiles(await pickFiles(), 'picker')}>
        Import files
      </button>
      <button type="button" onClick={async () => void importFiles(await pickFolder(), 'picker')}>
        Import folder
      </button>
      <button
        type="button"
        onClick={() => {
          pasting.value = true;
        }}
      >
        Paste JSONL
      </button>
      {pasting.value && (
        <PasteDialog
          onClose={() => {
            pasting.value = false;
          }}
        />
      )}
    </div>
  );
}
