// Setting up a sync space: the provider, its fields, the CORS rule to paste, "Check", then
// "Create the space". What is typed goes to the worker; the page keeps no credential afterwards.
import { useSignal } from '@preact/signals';
import type { SpaceSettings } from '../../worker/sync/api.ts';
import { describeError, library } from '../models/calls.ts';
import { CheckResult } from './CheckResult.tsx';
import { type CheckView, defaultDeviceName } from './model.ts';
import { PROVIDERS, type ProviderId, providerById } from './providers.ts';

type Fields = Record<string, string>;

function Field({
  name,
  label,
  fields,
  secret,
  placeholder,
  hint,
}: {
  name: string;
  label: string;
  fields: Fields;
  secret?: boolean;
  placeholder?: string;
  hint?: string;
}) {
  const id = `sync-${name}`;
  const props = {
    id,
    name,
    autocomplete: 'off',
    spellcheck: false,
    placeholder,
    value: fields[name] ?? '',
    onInput: (e: Event) => {
      fields[name] = (e.currentTarget as HTMLInputElement).value;
    },
  };
  return (
    <div class="sync-field">
      <label for={id}>{label}</label>
      {secret ? <input type="password" {...props} /> : <input type="text" {...props} />}
      {hint && <small class="muted">{hint}</small>}
    </div>
  );
}

function settingsOf(kind: 's3' | 'webdav' | 'folder', f: Fields, folderName: string): SpaceSettings {
  if (kind === 's3')
    return {
      kind,
      endpoint: f.endpoint ?? '',
      region: f.region ?? '',
      bucket: f.bucket ?? '',
      prefix: f.prefix ?? '',
      accessKeyId: f.accessKeyId ?? '',
      secretAccessKey: f.secretAccessKey ?? '',
    };
  if (kind === 'webdav') return { kind, url: f.url ?? '', username: f.username ?? '', password: f.password ?? '' };
  return { kind, name: folderName };
}

export function SetupForm() {
  const providerId = useSignal<ProviderId>('r2');
  const fields = useSignal<Fields>({ deviceName: defaultDeviceName(), prefix: 'rho-sessions/' });
  const folder = useSignal<FileSystemDirectoryHandle | null>(null);
  const busy = useSignal<'check' | 'create' | null>(null);
  const result = useSignal<CheckView | null>(null);
  const note = useSignal<string | null>(null);
  const provider = providerById(providerId.value);
  const f = fields.value;
  const origin = location.origin;

  const run = async (what: 'check' | 'create') => {
    busy.value = what;
    result.value = null;
    note.value = null;
    try {
      const space = settingsOf(provider.kind, f, folder.value?.name ?? '');
      if (provider.kind === 'folder' && !folder.value) throw new Error('Choose the folder first.');
      const handle = folder.value ?? undefined;
      result.value = what === 'check' ? await library.syncCheck({ space, handle }) : await library.syncSetup({ space, handle, deviceName: f.deviceName ?? '' });
    } catch (e) {
      note.value = describeError(e);
    } finally {
      busy.value = null;
    }
  };

  return (
    <form
      class="sync-setup"
      aria-label="Set up a sync space"
      onSubmit={(e) => {
        e.preventDefault();
        void run('create');
      }}
    >
      <label class="sync-field">
        <span>Where your sessions are stored</span>
        <select
          name="provider"
          value={providerId.value}
          onChange={(e) => {
            providerId.value = (e.currentTarget as HTMLSelectElement).value as ProviderId;
            result.value = null;
          }}
        >
          {PROVIDERS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      {provider.kind === 's3' && (
        <>
          <Field name="endpoint" label="Endpoint" fields={f} placeholder={provider.endpoint} />
          <Field name="region" label="Region" fields={f} placeholder={provider.region} />
          <Field name="bucket" label="Bucket" fields={f} />
          <Field name="prefix" label="Prefix (a folder inside the bucket)" fields={f} hint="Optional; ends in /." />
          <Field name="accessKeyId" label="Access key id" fields={f} />
          <Field name="secretAccessKey" label="Secret access key" secret fields={f} hint="Kept on this device only, never shown again." />
        </>
      )}
      {provider.kind === 'webdav' && (
        <>
          <Field name="url" label="Folder URL" fields={f} placeholder="https://cloud.example.com/remote.php/dav/files/me/rho-sessions/" />
          <Field name="username" label="User" fields={f} />
          <Field name="password" label="Password or app token" secret fields={f} hint="Kept on this device only, never shown again." />
        </>
      )}
      {provider.kind === 'folder' && (
        <p>
          <button
            type="button"
            onClick={async () => {
              try {
                folder.value = await (window as unknown as { showDirectoryPicker(o: object): Promise<FileSystemDirectoryHandle> }).showDirectoryPicker({
                  id: 'rho-sync',
                  mode: 'readwrite',
                });
              } catch (e) {
                if ((e as DOMException)?.name !== 'AbortError') note.value = describeError(e);
              }
            }}
          >
            Choose the folder…
          </button>{' '}
          {folder.value ? <strong>{folder.value.name}</strong> : <span class="muted">A folder Syncthing, Dropbox or iCloud Drive keeps in sync.</span>}
        </p>
      )}
      <Field name="deviceName" label="This device’s name (other devices list it)" fields={f} />
      {provider.cors(origin) && (
        <details class="sync-cors">
          <summary>The CORS rule to paste (the browser needs it)</summary>
          <p class="muted">{provider.corsWhere}</p>
          <pre class="sync-rule">{provider.cors(origin)}</pre>
        </details>
      )}
      <div class="sync-actions">
        <button type="button" disabled={busy.value !== null} onClick={() => void run('check')}>
          {busy.value === 'check' ? 'Checking…' : 'Check'}
        </button>
        <button type="submit" class="primary" disabled={busy.value !== null}>
          {busy.value === 'create' ? 'Creating…' : 'Create the space'}
        </button>
      </div>
      {result.value && <CheckResult result={result.value} provider={provider} origin={origin} />}
      {note.value && <p role="alert">{note.value}</p>}
    </form>
  );
}
