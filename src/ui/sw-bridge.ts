import { signal } from '@preact/signals';
import { Workbox } from 'workbox-window';

/** True when a new version is installed and waits for the user's "reload". */
export const updateAvailable = signal(false);

let workbox: Workbox | null = null;

/** Registers the service worker (production builds only) and listens for waiting updates. */
export function startServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', () => { updateAvailable.value = true; });
  void workbox.register();
}

/** Applies the waiting update: the new service worker takes over, then the page reloads once. */
export function applyUpdate(): void {
  if (!workbox) return location.reload();
  workbox.addEventListener('controlling', () => location.reload());
  workbox.messageSkipWaiting();
}
