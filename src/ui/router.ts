import { signal } from '@preact/signals';

/** The screens the app can show, as hash routes (`#/`, `#/s/<id>?leaf=…&entry=…&find=…`, `#/import?share=…`, `#/usage?day=…`). */
export type Route =
  | { name: 'library' }
  | { name: 'reader'; id: string; leafId?: string; entryId?: string; find?: string }
  | { name: 'import'; share?: string }
  | { name: 'usage'; day?: string }
  | { name: 'sync'; pair?: string };

/** Reads a route from a location hash; anything unknown is the library. */
export function parseRoute(hash: string): Route {
  // A pairing link (`…/#pair=<payload>`): the sync screen opens it (the fragment never reaches a server).
  if (/^#pair=[A-Za-z0-9._-]+$/.test(hash)) return { name: 'sync', pair: hash.slice(6) };
  const raw = hash.replace(/^#/, '') || '/';
  const [path, query = ''] = raw.split('?', 2);
  const params = new URLSearchParams(query);
  const reader = /^\/s\/([^/]+)$/.exec(path);
  if (reader) {
    return {
      name: 'reader',
      id: decodeURIComponent(reader[1]),
      leafId: params.get('leaf') ?? undefined,
      entryId: params.get('entry') ?? undefined,
      find: params.get('find') ?? undefined,
    };
  }
  if (path === '/import') return { name: 'import', share: params.get('share') ?? undefined };
  if (path === '/sync') return { name: 'sync' };
  if (path === '/usage') return { name: 'usage', day: params.get('day') ?? undefined };
  return { name: 'library' };
}

/** Writes a route as a location hash. */
export function formatRoute(route: Route): string {
  if (route.name === 'reader') {
    const params = new URLSearchParams();
    if (route.leafId) params.set('leaf', route.leafId);
    if (route.entryId) params.set('entry', route.entryId);
    if (route.find) params.set('find', route.find);
    const query = params.toString();
    return `#/s/${encodeURIComponent(route.id)}${query ? `?${query}` : ''}`;
  }
  if (route.name === 'import') return route.share ? `#/import?share=${encodeURIComponent(route.share)}` : '#/import';
  if (route.name === 'sync') return route.pair ? `#pair=${route.pair}` : '#/sync';
  if (route.name === 'usage') return route.day ? `#/usage?day=${encodeURIComponent(route.day)}` : '#/usage';
  return '#/';
}

/** The current route; follows the location hash. */
export const route = signal<Route>(parseRoute(location.hash));

window.addEventListener('hashchange', () => {
  route.value = parseRoute(location.hash);
});

/** Goes to a route; `replace` keeps the back button from stepping through every small move. */
export function navigate(next: Route, options: { replace?: boolean } = {}): void {
  const hash = formatRoute(next);
  if (hash === location.hash) return;
  if (options.replace) history.replaceState(history.state, '', hash);
  else history.pushState({ inApp: true }, '', hash);
  route.value = parseRoute(hash);
}

/**
 * Goes back to where the user came from when that was inside the app (so the browser's back
 * button and ours agree), else to `fallback` (e.g. a reader opened from a link or a launch).
 */
export function goBack(fallback: Route): void {
  if ((history.state as { inApp?: boolean } | null)?.inApp) history.back();
  else navigate(fallback, { replace: true });
}
