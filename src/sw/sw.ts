/// <reference lib="webworker" />
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// The app shell and every asset of this build, so the app opens with no network after one visit.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every navigation (deep links like /#/s/<id> included) is answered with the precached shell.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html')));

// An update waits until the user says "reload" (never applied under a reader's feet).
self.addEventListener('message', (event) => {
  if (event.data?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// The first install takes control at once, so the first visit already works offline.
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
