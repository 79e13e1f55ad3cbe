// The core worker's own check of the origins it may reach, beside the service worker's
// (src/sw/connect-guard.ts). A worker started before the service worker controls the page (a first
// visit, before the claim) is not controlled by it for its whole life: its requests would otherwise
// reach any origin. Same origin and non-http(s) URLs (blob:, data:) pass; another origin passes only
// when it is in the list this worker last wrote (connect-list.ts), else the request fails as a
// network error does.

/** Wraps `scope.fetch` so that a request to an origin not in `allowed()` is refused. */
export function guardFetch(scope: { fetch: typeof fetch; location: { origin: string } }, allowed: () => ReadonlySet<string>): void {
  const inner = scope.fetch.bind(scope);
  scope.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), scope.location.origin);
    const open = url.origin === scope.location.origin || (url.protocol !== 'http:' && url.protocol !== 'https:') || allowed().has(url.origin);
    return open ? inner(input, init) : Promise.reject(new TypeError(`Failed to fetch: ${url.origin} is not among the model providers or the sync space`));
  };
}
