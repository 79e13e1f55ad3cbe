// Models through pi-ai (loaded on first use, so the app's first load does not carry it): the
// catalog's models for a provider, and the pi-ai Model a choice stands for.
import type { Api, Model } from '@mariozechner/pi-ai';
import type { ProviderConfig, ProviderKind } from './keys.ts';

export type PiAi = typeof import('@mariozechner/pi-ai');
let piAi: Promise<PiAi> | null = null;

/** pi-ai itself, imported once; its providers load when a request first needs them. */
export function loadPiAi(): Promise<PiAi> {
  piAi ??= import('@mariozechner/pi-ai');
  return piAi;
}

/** A model as the settings list it. */
export interface ModelInfo {
  id: string;
  name: string;
  /** Takes pictures. */
  images: boolean;
  reasoning: boolean;
  contextWindow: number;
  /** USD per million input / output tokens. */
  cost: { input: number; output: number };
}

const info = (m: Model<Api>): ModelInfo => ({
  id: m.id,
  name: m.name,
  images: m.input.includes('image'),
  reasoning: m.reasoning,
  contextWindow: m.contextWindow,
  cost: { input: m.cost.input, output: m.cost.output },
});

/** The catalog's models of a provider (none for an OpenAI-compatible base URL: its ids are typed in). */
export async function catalogModels(provider: ProviderKind): Promise<ModelInfo[]> {
  if (provider === 'openai-compatible') return [];
  const ai = await loadPiAi();
  return ai.getModels(provider).map(info);
}

/** The provider name written to the session for an OpenAI-compatible endpoint. */
export const COMPATIBLE_PROVIDER = 'openai-compatible';

/** The pi-ai model for `modelId` of a configured provider (its base URL, when set, replaces the catalog's). */
export async function resolveModel(config: ProviderConfig, modelId: string): Promise<Model<Api>> {
  if (config.provider === 'openai-compatible') {
    if (!config.baseUrl) throw new Error('An OpenAI-compatible provider needs a base URL.');
    return {
      id: modelId,
      name: modelId,
      api: 'openai-completions',
      provider: COMPATIBLE_PROVIDER,
      baseUrl: config.baseUrl,
      reasoning: false,
      input: ['text', 'image'],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      contextWindow: 128_000,
      maxTokens: 16_384,
    };
  }
  const ai = await loadPiAi();
  const found = ai.getModel(config.provider as never, modelId as never) as Model<Api> | undefined;
  if (!found) throw new Error(`${config.provider} has no model "${modelId}" in pi-ai's catalog.`);
  return config.baseUrl ? { ...found, baseUrl: config.baseUrl } : found;
}
