import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import {
  catalog,
  loadProviders,
  PROVIDER_LABELS,
  providerLabel,
  providers,
  removeProvider,
  saveProvider,
  type ModelInfo,
  type ProviderKind,
} from './models-state.ts';
import './settings.css';

/** Settings → Models: add a provider's key (or a base URL) and pick its models; keys stay on this device. */
export function ModelsSettings() {
  const provider = useSignal<ProviderKind>('anthropic');
  const apiKey = useSignal('');
  const baseUrl = useSignal('');
  const model = useSignal('');
  const models = useSignal<ModelInfo[]>([]);
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);

  useEffect(() => {
    void loadProviders().catch((e) => (error.value = (e as Error).message));
  }, []);
  useEffect(() => {
    models.value = [];
    model.value = '';
    if (provider.value === 'openai-compatible') return;
    const asked = provider.value;
    void catalog(asked).then((list) => {
      if (provider.value !== asked) return;
      models.value = list;
      model.value = list[list.length - 1]?.id ?? '';
    });
  }, [provider.value]);

  const compatible = provider.value === 'openai-compatible';
  const add = async (e: Event) => {
    e.preventDefault();
    busy.value = true;
    error.value = null;
    try {
      await saveProvider({ provider: provider.value, apiKey: apiKey.value, baseUrl: baseUrl.value, models: [model.value] });
      apiKey.value = '';
      baseUrl.value = '';
    } catch (err) {
      error.value = (err as Error).message;
    } finally {
      busy.value = false;
    }
  };

  return (
    <section class="models-settings" aria-labelledby="models-h">
      <h3 id="models-h">Models</h3>
      <p class="muted">Your own API keys. They stay on this device and are never put in exports, shares or bundles.</p>
      {(providers.value ?? []).length > 0 && (
        <ul class="models-list">
          {(providers.value ?? []).map((p) => (
            <li key={p.id}>
              <span>
                <strong>{providerLabel(p.provider)}</strong> {p.models.join(', ')}
                {p.baseUrl && <span class="muted"> · {p.baseUrl}</span>}
                {!p.hasKey && <span class="muted"> · no key</span>}
              </span>
              <button type="button" onClick={() => void removeProvider(p.id)} aria-label={`Remove ${providerLabel(p.provider)} ${p.models.join(', ')}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="models-add" onSubmit={add}>
        <label>
          Provider
          <select value={provider.value} onChange={(e) => (provider.value = (e.currentTarget as HTMLSelectElement).value as ProviderKind)}>
            {PROVIDER_LABELS.map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          API key
          <input
            type="password"
            autoComplete="off"
            spellcheck={false}
            value={apiKey.value}
            onInput={(e) => (apiKey.value = (e.currentTarget as HTMLInputElement).value)}
            placeholder={compatible ? 'optional' : ''}
          />
        </label>
        <label>
          Base URL
          <input
            type="url"
            inputMode="url"
            spellcheck={false}
            value={baseUrl.value}
            onInput={(e) => (baseUrl.value = (e.currentTarget as HTMLInputElement).value)}
            placeholder={compatible ? 'http://localhost:11434/v1' : 'optional: another endpoint'}
          />
        </label>
        {compatible ? (
          <label>
            Model
            <input
              type="text"
              spellcheck={false}
              value={model.value}
              onInput={(e) => (model.value = (e.currentTarget as HTMLInputElement).value)}
              placeholder="llama3.2"
            />
          </label>
        ) : (
          <label>
            Model
            <select value={model.value} onChange={(e) => (model.value = (e.currentTarget as HTMLSelectElement).value)}>
              {models.value.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                  {m.images ? ' · pictures' : ''} · ${m.cost.input}/${m.cost.output} per M
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="submit" disabled={busy.value || !model.value}>
          Add model
        </button>
        {error.value && (
          <p role="alert" class="models-error">
            {error.value}
          </p>
        )}
      </form>
    </section>
  );
}
