// The host room's calls: Models settings (keys stay here: the page only ever gets ProviderViews),
// send (a message and the streamed reply; Stop is the call's abort) and compact.
import type { SessionStore } from '../../storage/types.ts';
import type { CallContext } from '../protocol.ts';
import { ApiFailure } from '../protocol.ts';
import type { AttachmentDisk } from './attachments.ts';
import { catalogModels, type ModelInfo } from './catalog.ts';
import { compactBranch, type CompactParams, type CompactResult } from './compact.ts';
import { cleanBaseUrl, PROVIDER_KINDS, viewOf, type KeyStore, type ProviderKind, type ProviderView } from './keys.ts';
import { createSessionFiles } from './session-file.ts';
import { send, type SendParams, type SendResult } from './turn.ts';

export type { ModelInfo, ProviderView, ProviderKind, SendParams, SendResult, CompactParams, CompactResult };
export type { StreamDelta } from './reply.ts';

export interface HostEnv {
  store: SessionStore;
  now(): Date;
  randomId(): string;
  keys: KeyStore;
  disk: AttachmentDisk;
}

/** What the page sends to add or change a provider (`apiKey` absent: keep the stored one). */
export interface ProviderInput {
  id?: string;
  provider: ProviderKind;
  apiKey?: string;
  baseUrl?: string;
  models: string[];
}

export function createHostApi(env: HostEnv) {
  const files = createSessionFiles(env.store, env);
  const deps = { ...env, now: () => env.now(), randomId: () => env.randomId(), files };
  const views = async () => (await env.keys.list()).map(viewOf);

  return {
    /** The providers set up in Models (never their keys). */
    async modelProviders(_params?: unknown, _ctx?: CallContext): Promise<ProviderView[]> {
      return views();
    },

    /** The catalog's models of a provider (pi-ai's table: names, pictures, prices). */
    async providerModels(params: { provider: ProviderKind }, _ctx?: CallContext): Promise<ModelInfo[]> {
      if (!PROVIDER_KINDS.includes(params.provider)) throw new ApiFailure('invalid-input', `Unknown provider ${params.provider}.`);
      return catalogModels(params.provider);
    },

    /** Adds or changes a provider; the key goes to IndexedDB on this device and never comes back. */
    async saveModelProvider(params: ProviderInput, _ctx?: CallContext): Promise<ProviderView[]> {
      if (!PROVIDER_KINDS.includes(params.provider)) throw new ApiFailure('invalid-input', `Unknown provider ${params.provider}.`);
      let baseUrl: string | undefined;
      try {
        baseUrl = params.baseUrl?.trim() ? cleanBaseUrl(params.baseUrl) : undefined;
      } catch (e) {
        throw new ApiFailure('invalid-input', (e as Error).message);
      }
      if (params.provider === 'openai-compatible' && !baseUrl)
        throw new ApiFailure('invalid-input', 'An OpenAI-compatible provider needs a Base URL (e.g. http://localhost:11434/v1).');
      const models = [...new Set(params.models.map((m) => m.trim()).filter(Boolean))];
      if (models.length === 0) throw new ApiFailure('invalid-input', 'Pick at least one model.');
      const list = await env.keys.list();
      const old = params.id ? list.find((p) => p.id === params.id) : undefined;
      const apiKey = params.apiKey?.trim() || old?.apiKey || '';
      if (!apiKey && params.provider !== 'openai-compatible') throw new ApiFailure('invalid-input', `An API key is needed for ${params.provider}.`);
      const id = old?.id ?? `${params.provider}-${env.randomId()}`;
      const next = { id, provider: params.provider, apiKey, ...(baseUrl ? { baseUrl } : {}), models };
      await env.keys.save(old ? list.map((p) => (p.id === id ? next : p)) : [...list, next]);
      return views();
    },

    /** Removes a provider and its key from this device. */
    async removeModelProvider(params: { id: string }, _ctx?: CallContext): Promise<ProviderView[]> {
      await env.keys.save((await env.keys.list()).filter((p) => p.id !== params.id));
      return views();
    },

    /** Sends a message (new chat without `id`) and writes the turn; progress carries the streamed reply; abort = Stop. */
    async sendMessage(params: SendParams, ctx?: CallContext): Promise<SendResult> {
      return send(deps, params, ctx?.signal, (d) => ctx?.progress({ done: 0, total: 0, stream: d }));
    },

    /** Compacts a branch with the chosen model. */
    async compactSession(params: CompactParams, ctx?: CallContext): Promise<CompactResult> {
      return compactBranch(deps, params, ctx?.signal);
    },
  };
}
