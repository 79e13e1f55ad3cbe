import { signal } from '@preact/signals';
import { estimateStorage, requestPersistence } from '../platform.ts';
import { isMissingMethod, library, type StorageInfo } from './calls.ts';

/** Usage, quota and persistence of this device's storage; null until measured. */
export const storage = signal<StorageInfo | null>(null);
/** The user asked to keep the data and the browser said no (its persist() answered false). */
export const persistRefused = signal(false);

/** Measures storage again (after imports and deletes). */
export async function refreshStorage(): Promise<void> {
  try {
    storage.value = await library.storageInfo({});
  } catch (e) {
    if (!isMissingMethod(e)) console.warn('storageInfo failed', e);
    const page = await estimateStorage();
    storage.value = { ...page, opfs: 'getDirectory' in (navigator.storage ?? {}) };
  }
}

/**
 * Asks the browser to keep our data under storage pressure. Only the page can ask
 * (navigator.storage.persist is not exposed to workers), and asking after the first import makes
 * sense to the browser's heuristics and to the user.
 */
export async function askToPersist(): Promise<void> {
  if (storage.value?.persistent) return;
  const granted = await requestPersistence().catch(() => false);
  persistRefused.value = !granted;
  await refreshStorage();
}
