// Every request of the app (the page, the core worker, its workers) to another origin passes here:
// one to an origin in the list the worker keeps (the model providers in Models, their base URLs,
// the sync space's endpoint: storage/connect-origins.ts) goes on untouched, any other is refused
// as a network error. The page's own CSP allows only 'self'; a worker's CSP would be fixed when it
// starts, and this list changes while it runs, so the service worker enforces it (docs/architecture.md).
import { CONNECT_CHANNEL, readConnectOrigins } from '../storage/connect-origins.ts';

export function guardConnections(scope: ServiceWorkerGlobalScope): void {
  // The list as last read (null until the first read ends).
  let allowed: Set<string> | null = null;
  const load = () =>
    readConnectOrigins().then(
      (set) => (allowed = set),
      () => (allowed = new Set()),
    );
  void load();
  // The worker wrote a new list (a provider added or removed, a sync space set up or left): until it
  // is read, every request waits for it. A service worker started later reads it when it starts.
  new BroadcastChannel(CONNECT_CHANNEL).addEventListener('message', () => {
    allowed = null;
    void load();
  });
  scope.addEventListener('fetch', (event) => {
    const url = new URL(event.request.url);
    if (url.origin === scope.location.origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return;
    // Allowed as last read: the browser makes the request itself (streams and Stop as without us).
    if (allowed?.has(url.origin)) return;
    // Not in the list as last read (or not read yet): read it again before deciding.
    event.respondWith(load().then((set) => (set.has(url.origin) ? fetch(event.request) : Response.error())));
  });
}
