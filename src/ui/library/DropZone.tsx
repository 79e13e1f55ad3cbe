import { useEffect } from 'preact/hooks';
import { useSignal } from '@preact/signals';
import { isFileDrag, readDrop } from '../platform.ts';
import { importFiles } from '../models/imports.ts';
import { showToast } from '../models/toasts.ts';
import './library.css';
import './import.css';

/** The whole window accepts dropped files and folders; an overlay says so while dragging. */
export function DropZone() {
  const active = useSignal(false);
  useEffect(() => {
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!isFileDrag(e)) return;
      e.preventDefault();
      depth++;
      active.value = true;
    };
    const over = (e: DragEvent) => {
      if (!isFileDrag(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!isFileDrag(e)) return;
      depth = Math.max(0, depth - 1);
      if (!depth) active.value = false;
    };
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer || !isFileDrag(e)) return;
      e.preventDefault();
      depth = 0;
      active.value = false;
      readDrop(e.dataTransfer)
        .then((files) => {
          if (files.length) void importFiles(files, 'drop');
          else showToast('Nothing to import in that drop.');
        })
        .catch((err: unknown) => showToast(`Could not read the drop: ${String(err)}`));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);
  if (!active.value) return null;
  return (
    <div class="drop-overlay" aria-hidden="true">
      <div class="drop-card">Drop session files or folders to import them</div>
    </div>
  );
}
