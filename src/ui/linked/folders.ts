import { signal } from '@preact/signals';
import { createStore, del, entries, set } from 'idb-keyval';
import type { LinkedSession, SyncReport, WriteBackPlan } from '../../worker/linked/api.ts';
import type { Progress } from '../../worker/protocol.ts';
import { describeError, isAborted, library } from '../models/calls.ts';
import { refreshLibrary } from '../models/library.ts';
import { showToast } from '../models/toasts.ts';
import { takeAppends } from './auto-append.ts';
import { watchFolder } from './watch.ts';
import { plural } from '../models/format.ts';

/** One linked folder as the page shows it. */
export interface LinkedFolder {
  key: string;
  name: string;
  handle: FileSystemDirectoryHandle;
  /** granted: synced without asking; prompt: needs a click on "Reconnect"; denied: refused. */
  permission: PermissionState;
  syncing: boolean;
  progress: Progress | null;
  report: SyncReport | null;
  /** When the last sync ended (ms), to word the report. */
  syncedAt: number | null;
  error: string | null;
  /** Sessions longer in the library than in the folder (written back on request). */
  longer: LinkedSession[];
}

/** The linked folders, in the order they were linked. */
export const linkedFolders = signal<LinkedFolder[]>([]);
/** A note for the user after a folder could not be linked (the browser refused it). */
export const linkNote = signal<string | null>(null);

// The handles live in IndexedDB (structured-cloneable, https://fs.spec.whatwg.org/#filesystemhandle).
const db = createStore('rho-linked-folders', 'handles');
const MODE = { mode: 'readwrite' } as const;

interface PermissionHandle extends FileSystemDirectoryHandle {
  queryPermission(d: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
  requestPermission(d: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
}
type DirectoryPicker = (options: { id?: string; mode?: 'read' | 'readwrite' }) => Promise<FileSystemDirectoryHandle>;

/**
 * Whether folders can be linked here: the picker and lasting permissions (Chromium on desktop).
 * Chrome on Android has the picker but forgets the permission, so a link would not last.
 */
export function canLinkFolders(): boolean {
  const w = window as unknown as { showDirectoryPicker?: unknown; FileSystemHandle?: { prototype: object } };
  return (
    typeof w.showDirectoryPicker === 'function' &&
    !!w.FileSystemHandle &&
    'queryPermission' in w.FileSystemHandle.prototype &&
    !/Android/i.test(navigator.userAgent)
  );
}

const update = (key: string, patch: Partial<LinkedFolder>) => {
  linkedFolders.value = linkedFolders.value.map((f) => (f.key === key ? { ...f, ...patch } : f));
};
const find = (key: string) => linkedFolders.value.find((f) => f.key === key);

/** Reads the linked folders and their permissions; syncs the granted ones. */
export async function loadLinkedFolders(): Promise<void> {
  if (!canLinkFolders()) return;
  const stored = await entries<string, { name: string; handle: FileSystemDirectoryHandle }>(db);
  const known = new Map(linkedFolders.value.map((f) => [f.key, f]));
  const next: LinkedFolder[] = [];
  for (const [key, { name, handle }] of stored) {
    const permission = await (handle as PermissionHandle).queryPermission(MODE).catch(() => 'denied' as PermissionState);
    const old = known.get(key);
    next.push(
      old ? { ...old, permission } : { key, name, handle, permission, syncing: false, progress: null, report: null, syncedAt: null, error: null, longer: [] },
    );
  }
  linkedFolders.value = next;
  for (const f of next) if (f.permission === 'granted') void syncLinked(f.key);
}

/** Explains a folder the browser would not give us (system folders, the home folder itself). */
function refusal(e: unknown): string {
  const name = (e as DOMException)?.name;
  if (name === 'SecurityError' || name === 'NotAllowedError')
    return 'The browser does not let web apps open that folder (it keeps system folders such as ~/.config, and your home folder itself, off limits). Link the sessions folder inside it instead: ~/.pi/agent/sessions for pi, ~/.omp/agent for omp.';
  return `That folder could not be linked: ${describeError(e)}`;
}

/** "Link a folder": the folder picker, then a first sync. */
export async function linkFolder(): Promise<void> {
  linkNote.value = null;
  let handle: FileSystemDirectoryHandle;
  try {
    handle = await (window as unknown as { showDirectoryPicker: DirectoryPicker }).showDirectoryPicker({ id: 'rho-linked', ...MODE });
  } catch (e) {
    if ((e as DOMException)?.name !== 'AbortError') linkNote.value = refusal(e);
    return;
  }
  for (const f of linkedFolders.value) {
    if (await f.handle.isSameEntry(handle)) {
      linkNote.value = `${handle.name} is linked already.`;
      return void syncLinked(f.key);
    }
  }
  const key = crypto.randomUUID();
  await set(key, { name: handle.name, handle }, db);
  const permission = await (handle as PermissionHandle).queryPermission(MODE).catch(() => 'granted' as PermissionState);
  linkedFolders.value = [
    ...linkedFolders.value,
    { key, name: handle.name, handle, permission, syncing: false, progress: null, report: null, syncedAt: null, error: null, longer: [] },
  ];
  if (permission === 'granted') await syncLinked(key);
}

/** "Reconnect": asks for permission again (needs the click it is called from), then syncs. */
export async function reconnect(key: string): Promise<void> {
  const f = find(key);
  if (!f) return;
  const permission = await (f.handle as PermissionHandle).requestPermission(MODE).catch(() => 'denied' as PermissionState);
  update(key, { permission });
  if (permission === 'granted') await syncLinked(key);
}

/** Forgets a folder (its sessions stay in the library). */
export async function unlink(key: string): Promise<void> {
  stopWatching(key);
  await del(key, db);
  linkedFolders.value = linkedFolders.value.filter((f) => f.key !== key);
}

const running = new Map<string, AbortController>();
const again = new Set<string>();

/** Syncs one folder now (a sync already running is followed by one more). */
export async function syncLinked(key: string): Promise<void> {
  if (running.has(key)) {
    again.add(key);
    return;
  }
  const f = find(key);
  if (f?.permission !== 'granted') return;
  const controller = new AbortController();
  running.set(key, controller);
  update(key, { syncing: true, progress: null, error: null });
  try {
    const report = await library.syncLinkedFolder(
      { key, handle: f.handle },
      { signal: controller.signal, onProgress: (progress) => update(key, { progress }) },
    );
    const grown = (await library.linkedSessions({ key })).filter((s) => s.librarySize > s.folderSize);
    // Sessions that only grew elsewhere go back to the agent's file by themselves where the folder allows it.
    const { left: longer, appended } = await takeAppends(key, f.handle, grown);
    if (appended.length) showToast(`Appended to ${appended.length === 1 ? appended[0] : `${appended.length} files`} in ${f.name}.`);
    update(key, { report: mergeReports(find(key)?.report ?? null, report), longer, syncedAt: Date.now() });
    if (report.items.length || report.gone.length) void refreshLibrary();
  } catch (e) {
    if (isAborted(e)) update(key, { error: 'Sync cancelled; what was read before is kept.' });
    else {
      // The permission may be gone (the browser was restarted, the user revoked it).
      const permission = await (f.handle as PermissionHandle).queryPermission(MODE).catch(() => 'denied' as PermissionState);
      update(key, { error: describeError(e), permission });
    }
  } finally {
    running.delete(key);
    update(key, { syncing: false, progress: null });
    if (again.delete(key)) void syncLinked(key);
  }
}

/**
 * What the folder's syncs did since the page opened: every file read (its latest outcome), every
 * file gone; the waiting files and the unchanged count are the latest sync's. A sync that found
 * nothing new does not wipe what the earlier ones found.
 */
function mergeReports(before: SyncReport | null, next: SyncReport): SyncReport {
  if (!before) return next;
  const items = new Map(before.items.map((i) => [i.name, i]));
  for (const i of next.items) {
    items.delete(i.name);
    items.set(i.name, i);
  }
  const gone = new Map(before.gone.map((g) => [g.path, g]));
  for (const g of next.gone) gone.set(g.path, g);
  return { items: [...items.values()].slice(-500), gone: [...gone.values()].slice(-500), waiting: next.waiting, unchanged: next.unchanged };
}

/** Syncs every folder the page may read now (after sessions grew through the sync space). */
export async function syncAllLinked(): Promise<void> {
  await Promise.all(linkedFolders.value.filter((f) => f.permission === 'granted').map((f) => syncLinked(f.key)));
}

/** Stops a running sync. */
export function cancelSync(key: string): void {
  again.delete(key);
  running.get(key)?.abort();
}

/** What writing a session back would write (shown before anything is written). */
export function planWriteBack(key: string, id: string): Promise<WriteBackPlan> {
  const f = find(key);
  if (!f) return Promise.reject(new Error('That folder is no longer linked.'));
  return library.planWriteBack({ key, handle: f.handle, id });
}

/** Writes a confirmed plan back to the folder. */
export async function confirmWriteBack(key: string, plan: WriteBackPlan): Promise<void> {
  const f = find(key);
  if (!f) return;
  try {
    const done = await library.writeBack({ key, handle: f.handle, plan });
    showToast(
      plan.mode === 'append'
        ? `Appended ${plural(plan.entries.length, 'entry', 'entries')} to ${done.target}.`
        : `Wrote ${done.target} beside the agent's file.`,
    );
  } catch (e) {
    showToast(`Nothing was written: ${describeError(e)}`);
  }
  await syncLinked(key);
}

const watchers = new Map<string, () => void>();
function stopWatching(key: string) {
  watchers.get(key)?.();
  watchers.delete(key);
}

/** Watches every granted folder while the page is visible; stops when it is hidden. */
function followVisible(): void {
  const visible = document.visibilityState === 'visible';
  for (const f of linkedFolders.value) {
    if (visible && f.permission === 'granted' && !watchers.has(f.key))
      watchers.set(
        f.key,
        watchFolder(f.handle, () => void syncLinked(f.key)),
      );
    if (!visible || f.permission !== 'granted') stopWatching(f.key);
  }
}

/** On launch, on focus and when the page becomes visible: check permissions, sync, and follow live. */
export function watchLinkedFolders(): void {
  if (!canLinkFolders()) return;
  const check = () => void loadLinkedFolders().then(followVisible);
  check();
  window.addEventListener('focus', check);
  document.addEventListener('visibilitychange', () => (document.visibilityState === 'visible' ? check() : followVisible()));
  linkedFolders.subscribe(() => followVisible());
}
