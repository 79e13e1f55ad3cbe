// The user's model providers and their keys, kept on this device only (IndexedDB through
// idb-keyval). Read here in the worker; the page gets `ProviderView`s, which never hold a key.
import { createStore, get, set } from 'idb-keyval';
export { createMemoryDisk as memoryDisk } from '../../storage/memory-disk.ts';

/** The providers a key can be added for; `openai-compatible` is a base URL (Ollama, LM Studio, a gateway). */
export const PROVIDER_KINDS = ['anthropic', 'openai', 'google', 'openrouter', 'groq', 'mistral', 'xai', 'openai-compatible'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** One provider as stored: its key stays in the worker. */
export interface ProviderConfig {
  id: string;
  provider: ProviderKind;
  apiKey: string;
  /** Another endpoint for the provider (required for `openai-compatible`). */
  baseUrl?: string;
  /** The model ids the user picked. */
  models: string[];
}

/** What the page sees of a provider: no key, only whether one is set. */
export interface ProviderView {
  id: string;
  provider: ProviderKind;
  hasKey: boolean;
  baseUrl?: string;
  models: string[];
}

/** Where the provider list lives. */
export interface KeyStore {
  list(): Promise<ProviderConfig[]>;
  save(list: ProviderConfig[]): Promise<void>;
}

const KEY = 'providers';

/** The list in IndexedDB database `name`. */
export function idbKeyStore(name: string): KeyStore {
  const db = createStore(name, 'keys');
  return {
    list: async () => (await get<ProviderConfig[]>(KEY, db)) ?? [],
    save: (list) => set(KEY, list, db),
  };
}

/** The list in memory (Node tests). */
export function memoryKeyStore(initial: ProviderConfig[] = []): KeyStore {
  let list = initial.map((p) => ({ ...p }));
  return {
    list: async () => list.map((p) => ({ ...p, models: [...p.models] })),
    save: async (next) => {
      list = next.map((p) => ({ ...p, models: [...p.models] }));
    },
  };
}

/** A provider without its key. */
export function viewOf(p: ProviderConfig): ProviderView {
  return { id: p.id, provider: p.provider, hasKey: p.apiKey !== '', ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}), models: [...p.models] };
}

/** Checks a base URL: http(s) only, no credentials in it. Returns it without a trailing slash. */
export function cleanBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`Base URL "${raw}" is not a URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`Base URL "${raw}" must start with http:// or https://.`);
  if (url.username || url.password) throw new Error('Put the key in API key, not in the base URL.');
  return url.href.replace(/\/+$/, '');
}
