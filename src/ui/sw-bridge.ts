import { signal } from '@preact/signals';
import { Workbox } from 'workbox-window';
import { trustedScriptURL } from './trusted-types.ts';

/** True when a new version is installed and waits for the user's "reload". */
export const updateAvailable = signal(false);

let workbox: Workbox | null = null;

/** Registers the service worker (production builds only) and listens for waiting updates. */
export function startServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  workbox = new Workbox(trustedScriptURL('/sw.js'), { scope: '/' });
  // A new version never takes over by itself: it waits, and the page says so.
  workbox.addEventListener('waiting', () => {
    updateAvailable.value = true;
  });
  // A browser may refuse the registration (a private window, a policy): the app then works online only.
  workbox.register().catch(() => undefined);
  // An installed app can stay open for days: look for a new version whenever it comes back to view.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void checkForUpdate();
  });
}

/** Looks for a new version now (the browser also checks on navigation and every 24 hours). */
export async function checkForUpdate(): Promise<void> {
  await workbox?.update().catch(() => undefined);
}

/** Applies the waiting update: the new service worker takes over, then the page reloads once. */
export function applyUpdate(): void {
  if (!workbox) {
    location.reload();
    return;
  }
  workbox.addEventListener('controlling', () => location.reload());
  workbox.messageSkipWaiting();
}

/** The cache the service worker keeps shared files in (same name as src/sw/share-target.ts). */
const SHARE_CACHE = 'rho-share';

/** Files (and text) another app shared with us, as the service worker stored them. */
export interface SharedItems {
  files: File[];
  text: string | null;
  title: string | null;
}

/**
 * Takes what the share-target POST stored under `key` and forgets it, so a reload does not import
 * it twice. Null when there is nothing under that key (already taken, or the share failed).
 */
export async function takeShared(key: string): Promise<SharedItems | null> {
  if (!('caches' in window)) return null;
  const cache = await caches.open(SHARE_CACHE);
  const metaResponse = await cache.match(`/__share/${key}/meta`);
  if (!metaResponse) return null;
  const meta = (await metaResponse.json()) as { files: Array<{ name: string; type: string }>; title: string | null; text: string | null };
  const files: File[] = [];
  for (const [i, info] of meta.files.entries()) {
    const response = await cache.match(`/__share/${key}/${i}`);
    if (response) files.push(new File([await response.blob()], info.name, { type: info.type }));
  }
  await Promise.all([cache.delete(`/__share/${key}/meta`), ...meta.files.map((_, i) => cache.delete(`/__share/${key}/${i}`))]);
  return { files, text: meta.text, title: meta.title };
}
