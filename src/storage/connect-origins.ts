// The origins the app may reach besides its own: written by the worker (the model providers in
// Models, their base URLs, the sync space's endpoint), read by the service worker, which refuses
// every request to another origin (src/sw/connect-guard.ts). One record per library (the worker's
// OPFS root); the service worker allows the union.
import { createStore, set, values } from 'idb-keyval';

const db = () => createStore('rho-connect', 'origins');

/** The origin of an http(s) URL, or null for anything else. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** Where a new list is announced (the service worker reads it again at once). */
export const CONNECT_CHANNEL = 'rho-connect';

/** Stores the origins library `key` may reach, and says so. */
export async function writeConnectOrigins(key: string, origins: readonly string[]): Promise<void> {
  await set(key, [...new Set(origins)].sort(), db());
  const channel = new BroadcastChannel(CONNECT_CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

/** Every origin any library may reach. */
export async function readConnectOrigins(): Promise<Set<string>> {
  return new Set((await values<string[]>(db())).flat());
}
