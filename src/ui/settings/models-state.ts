// The Models settings on the page: the providers the worker keeps (never their keys) and the
// catalog's models per provider. The key typed in goes to the worker once and is not kept here.
import { signal } from '@preact/signals';
import type { ModelInfo, ProviderKind, ProviderView } from '../../worker/host/api.ts';
import { worker } from '../worker.ts';

export type { ModelInfo, ProviderKind, ProviderView };

/** The providers, as labelled in the Provider field. */
export const PROVIDER_LABELS: Array<[ProviderKind, string]> = [
  ['anthropic', 'Anthropic'],
  ['openai', 'OpenAI'],
  ['google', 'Google'],
  ['openrouter', 'OpenRouter'],
  ['groq', 'Groq'],
  ['mistral', 'Mistral'],
  ['xai', 'xAI'],
  ['openai-compatible', 'OpenAI-compatible (Ollama, LM Studio, a gateway)'],
];

export const providerLabel = (p: ProviderKind) => PROVIDER_LABELS.find(([k]) => k === p)?.[1] ?? p;

/** Providers set up on this device (null until read). */
export const providers = signal<ProviderView[] | null>(null);

export async function loadProviders(): Promise<ProviderView[]> {
  const list = await worker.modelProviders({});
  providers.value = list;
  return list;
}

const catalogs = new Map<ProviderKind, Promise<ModelInfo[]>>();
/** The catalog's models of a provider (read once). */
export function catalog(provider: ProviderKind): Promise<ModelInfo[]> {
  let c = catalogs.get(provider);
  if (!c) {
    c = worker.providerModels({ provider });
    c.catch(() => catalogs.delete(provider));
    catalogs.set(provider, c);
  }
  return c;
}

export async function saveProvider(input: { id?: string; provider: ProviderKind; apiKey?: string; baseUrl?: string; models: string[] }) {
  providers.value = await worker.saveModelProvider(input);
}

export async function removeProvider(id: string) {
  providers.value = await worker.removeModelProvider({ id });
}

/** Every model the user picked, as the composer's picker lists them. */
export function choices(list: readonly ProviderView[]): Array<{ value: string; label: string; provider: string; model: string }> {
  return list.flatMap((p) => p.models.map((m) => ({ value: `${p.id}|${m}`, label: `${m} · ${providerLabel(p.provider)}`, provider: p.id, model: m })));
}
