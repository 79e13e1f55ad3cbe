/**
 * The page's platform edges: file pickers, dropped folders, "Open with" (launchQueue), downloads,
 * the save dialog, the share sheet, the clipboard and the persist request. Nothing here knows about
 * sessions; it turns browser APIs into Files and back.
 */
import type { PathedFile } from './models/calls.ts';

/** Files picked or dropped, each with its path inside a folder when it came from one. */
export type Picked = Array<File | PathedFile>;

/** Opens the system file picker for one or many files; resolves with [] when the user cancels. */
export function pickFiles(): Promise<File[]> {
  return pickWithInput((input) => {
    input.multiple = true;
  }).then((files) => files.map((f) => f.file));
}

/** Opens the system folder picker; every file of the folder, recursively, with its relative path. */
export function pickFolder(): Promise<PathedFile[]> {
  return pickWithInput((input) => {
    input.webkitdirectory = true;
    input.multiple = true;
  });
}

function pickWithInput(setup: (input: HTMLInputElement) => void): Promise<PathedFile[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.hidden = true;
    setup(input);
    const finish = () => {
      const files = [...(input.files ?? [])];
      input.remove();
      resolve(files.map((file) => ({ path: file.webkitRelativePath || file.name, file })));
    };
    input.addEventListener('change', finish, { once: true });
    input.addEventListener('cancel', finish, { once: true });
    document.body.append(input);
    input.click();
  });
}

/** True when a drag carries files (not text or a link from the page). */
export function isFileDrag(event: DragEvent): boolean {
  return [...(event.dataTransfer?.types ?? [])].includes('Files');
}

/**
 * Every file of a drop, folders walked recursively. The entries must be taken synchronously inside
 * the drop handler: the DataTransfer is emptied once the event returns
 * (https://html.spec.whatwg.org/multipage/dnd.html#the-drag-data-store).
 */
export function readDrop(data: DataTransfer): Promise<Picked> {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of [...data.items]) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry?.();
    if (entry) entries.push(entry);
    else {
      const file = item.getAsFile();
      if (file) loose.push(file);
    }
  }
  if (!entries.length && !loose.length) loose.push(...data.files);
  return walkEntries(entries).then((found) => [...loose, ...found]);
}

/** Walks file-system entries without recursion (folders can be deep); files keep their path. */
export async function walkEntries(roots: FileSystemEntry[]): Promise<Picked> {
  const out: Picked = [];
  const stack = [...roots];
  while (stack.length) {
    const entry = stack.pop()!;
    if (entry.isFile) {
      const file = await fileOf(entry as FileSystemFileEntry);
      const path = entry.fullPath.replace(/^\//, '');
      out.push(path.includes('/') ? { path, file } : file);
    } else if (entry.isDirectory) {
      stack.push(...(await readAllEntries(entry as FileSystemDirectoryEntry)));
    }
  }
  return out;
}

/** readEntries answers in batches (Chromium: 100 at a time) until it answers an empty one. */
async function readAllEntries(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return all;
    all.push(...batch);
  }
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

interface LaunchParams {
  files: FileSystemFileHandle[];
}
interface LaunchQueue {
  setConsumer(consumer: (params: LaunchParams) => void): void;
}

/** "Open with Rho Sessions" (file_handlers): hands each launch's files to `onFiles`. */
export function watchLaunches(onFiles: (files: File[]) => void): void {
  const queue = (window as unknown as { launchQueue?: LaunchQueue }).launchQueue;
  queue?.setConsumer(async (params) => {
    if (!params.files?.length) return;
    onFiles(await Promise.all(params.files.map((handle) => handle.getFile())));
  });
}

/** Saves a blob through the browser's downloads. */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

type SaveFilePicker = (options: { suggestedName: string }) => Promise<FileSystemFileHandle>;

/** True when the browser offers a real "Save as" dialog (showSaveFilePicker). */
export function canSaveAs(): boolean {
  return typeof (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker === 'function';
}

/** Saves a blob where the user chooses; false when they cancel. */
export async function saveBlobAs(blob: Blob, name: string): Promise<boolean> {
  const picker = (window as unknown as { showSaveFilePicker: SaveFilePicker }).showSaveFilePicker;
  try {
    const handle = await picker({ suggestedName: name });
    const writable = await handle.createWritable();
    await writable.write(blob);
    await writable.close();
    return true;
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') return false;
    throw e;
  }
}

/** True when the share sheet can take files (phones, some desktops). */
export function canShareFiles(): boolean {
  if (typeof navigator.canShare !== 'function') return false;
  return navigator.canShare({ files: [new File(['x'], 'x.txt', { type: 'text/plain' })] });
}

/**
 * Opens the share sheet with a file. Android refuses `.jsonl` (not on its list of shareable types,
 * https://developer.mozilla.org/docs/Web/API/Navigator/canShare#shareable_file_types), so the file
 * then goes as `.jsonl.txt`, text/plain. False when the user cancels.
 */
export async function shareBlob(blob: Blob, name: string): Promise<boolean> {
  let file = new File([blob], name, { type: blob.type || 'application/octet-stream' });
  if (!navigator.canShare({ files: [file] })) file = new File([blob], `${name}.txt`, { type: 'text/plain' });
  try {
    await navigator.share({ files: [file], title: name });
    return true;
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') return false;
    throw e;
  }
}

/** Copies text to the clipboard. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  throw new Error('The clipboard is not available here.');
}

/** What a paste into the page (outside text fields) brought: files, or text that may be JSONL. */
export type Pasted = { files: File[] } | { text: string };

/** Calls `onPaste` for pastes that are not meant for a text field. */
export function watchPaste(onPaste: (pasted: Pasted) => void): void {
  document.addEventListener('paste', (event) => {
    const target = event.target as HTMLElement | null;
    if (target?.closest('input, textarea, [contenteditable]')) return;
    const data = event.clipboardData;
    if (!data) return;
    const files = [...data.files];
    if (files.length) return onPaste({ files });
    const text = data.getData('text/plain');
    if (text.trim()) onPaste({ text });
  });
}

/** Asks the browser to keep this origin's storage under pressure; true when it will. */
export async function requestPersistence(): Promise<boolean> {
  if (!navigator.storage?.persist) return false;
  if (await navigator.storage.persisted()) return true;
  return navigator.storage.persist();
}

/** Usage and quota of this origin, from the page (the worker's figure is preferred when present). */
export async function estimateStorage(): Promise<{ usage: number; quota: number; persistent: boolean }> {
  const estimate = await navigator.storage?.estimate?.();
  const persistent = (await navigator.storage?.persisted?.()) ?? false;
  return { usage: estimate?.usage ?? 0, quota: estimate?.quota ?? 0, persistent };
}

/** iPhone and iPad, including iPads that report themselves as a Mac. */
export function isIOS(): boolean {
  return /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
}

/** True when running as an installed app (its own window). */
export function isStandalone(): boolean {
  return matchMedia('(display-mode: standalone)').matches || (navigator as unknown as { standalone?: boolean }).standalone === true;
}
