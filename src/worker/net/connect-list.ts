// What the app may reach besides its own origin, kept where the service worker reads it
// (storage/connect-origins.ts): each configured model provider (its base URL, else the provider's
// own API origin), the sync space's endpoint, and a space being checked before it is saved.
// Written again whenever those settings change, and awaited before a request that needs it.
import { originOf } from '../../storage/connect-origins.ts';
import type { SpaceSettings } from '../../sync/index.ts';

/** The API origin of each provider a key can be added for (pi-ai's catalog; test/worker/net checks it). */
export const PROVIDER_ORIGINS: Record<string, string> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com',
  google: 'https://generativelanguage.googleapis.com',
  openrouter: 'https://openrouter.ai',
  groq: 'https://api.groq.com',
  mistral: 'https://api.mistral.ai',
  xai: 'https://api.x.ai',
};

/** The origin a sync space's requests go to (none for a folder). */
export function spaceOrigin(space: SpaceSettings): string | null {
  if (space.kind === 's3') return originOf(space.endpoint);
  if (space.kind === 'webdav') return originOf(space.url);
  return null;
}

/** What the worker's entry gives for the list: where it is stored (absent in Node tests: nothing is written). */
export interface ConnectEnv {
  connectOrigins?: (origins: string[]) => Promise<void>;
}

export interface ConnectSources {
  /** The providers in Models (no keys needed here). */
  providers(): Promise<Array<{ provider: string; baseUrl?: string }>>;
  /** The sync space set up on this device. */
  space(): Promise<SpaceSettings | undefined>;
  /** Stores the list. */
  write(origins: string[]): Promise<void>;
}

export function createConnectList(sources: ConnectSources) {
  // Spaces being checked or created before their settings are stored.
  const trying = new Set<string>();
  let written = new Set<string>();
  let last: Promise<void> = Promise.resolve();

  const compute = async () => {
    const out = new Set(trying);
    for (const p of await sources.providers()) {
      const o = p.baseUrl ? originOf(p.baseUrl) : (PROVIDER_ORIGINS[p.provider] ?? null);
      if (o) out.add(o);
    }
    const space = await sources.space();
    const o = space ? spaceOrigin(space) : null;
    if (o) out.add(o);
    return out;
  };

  /** Writes the list from the settings as stored now (one write at a time, in order). */
  const refresh = (): Promise<void> => {
    last = last
      .catch(() => undefined)
      .then(async () => {
        const next = await compute();
        await sources.write([...next]);
        written = next;
      });
    return last;
  };

  return {
    refresh,
    /** After the sync space's settings changed: a space no longer being tried is not reachable any more. */
    spaceChanged(): Promise<void> {
      trying.clear();
      return refresh();
    },
    /** Before a request to `space`: its origin is in the list (added while it is being checked). */
    async reach(space: SpaceSettings): Promise<void> {
      const o = spaceOrigin(space);
      if (!o || written.has(o)) return;
      trying.add(o);
      await refresh();
    },
  };
}

export type ConnectList = ReturnType<typeof createConnectList>;
