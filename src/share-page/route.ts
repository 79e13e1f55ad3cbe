// Deep links of the share page: `#entry=<id>`, `#leaf=<id>&entry=<id>`, and the app's own
// `#/s/<id>?leaf=…&entry=…` (the reader's row links), all read the same way.

/** Where the page is: the branch's leaf and the entry to bring on screen. */
export interface PageRoute {
  leafId?: string;
  entryId?: string;
}

/** The route in a location hash. */
export function parseRoute(hash: string): PageRoute {
  const text = hash.replace(/^#/, '');
  const query = text.includes('?') ? text.slice(text.indexOf('?') + 1) : text;
  const params = new URLSearchParams(query);
  const route: PageRoute = {};
  const leaf = params.get('leaf');
  const entry = params.get('entry');
  if (leaf) route.leafId = leaf;
  if (entry) route.entryId = entry;
  return route;
}

/** The hash of a route, in the page's own form (`#leaf=…&entry=…`; '' for none). */
export function formatRoute(route: PageRoute): string {
  const params = new URLSearchParams();
  if (route.leafId) params.set('leaf', route.leafId);
  if (route.entryId) params.set('entry', route.entryId);
  const text = params.toString();
  return text ? `#${text}` : '';
}
