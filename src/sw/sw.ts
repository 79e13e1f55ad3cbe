/// <reference lib="webworker" />
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { guardConnections } from './connect-guard.ts';
import { acceptShare } from './share-target.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// Requests to other origins: only those in the worker's list (model providers, base URLs, the sync space).
guardConnections(self);

// Files shared from another app (Android): kept for the page, which is sent to its import screen.
registerRoute(
  ({ url, request }) => request.method === 'POST' && url.pathname === '/share-target',
  ({ request }) => acceptShare(request),
  'POST',
);

// The app shell and every asset of this build, so the app opens with no network after one visit.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// pi-ai and the providers' SDKs (assets/ai-*.js, vite.config.ts): fetched when the worker first needs a model, then
// kept. Their names carry their content's hash, so a kept copy is never stale; old ones go with the cache when it is renamed.
registerRoute(
  ({ url, request }) => url.origin === self.location.origin && request.method === 'GET' && /^\/assets\/ai-[^/]+\.js$/.test(url.pathname),
  new CacheFirst({ cacheName: 'rho-model-code-v1' }),
);

// Every navigation (deep links like /#/s/<id> included) is answered with the precached shell.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html')));

// An update waits until the user says "reload" (never applied under a reader's feet).
self.addEventListener('message', (event) => {
  if (event.data?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// The first install takes control at once, so the first visit already works offline.
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
