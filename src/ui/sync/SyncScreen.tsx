// The sync screen (#/sync): set up a space or pair with one; then where it is, progress, the last
// sync, errors with the provider's answer and their fix, the paired devices and the space's size,
// "Add a device", leaving, and moving to a new space when a device is lost.
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { formatBytes, plural } from '../models/format.ts';
import { describeError, library } from '../models/calls.ts';
import { navigate } from '../router.ts';
import { AddDevice } from './AddDevice.tsx';
import { ProblemView } from './CheckResult.tsx';
import { syncStatus, type SyncStatus } from './model.ts';
import { PairPanel } from './PairPanel.tsx';
import { providerById, providerOfEndpoint } from './providers.ts';
import { SetupForm } from './SetupForm.tsx';
import './sync.css';

// One formatter, as toLocaleString writes a date and time (which builds a new one per call, the
// most of a status render's cost on a slow phone).
let stamp: Intl.DateTimeFormat | null = null;
const when = (ms: number | null) => {
  if (!ms) return 'never';
  stamp ??= new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  return stamp.format(ms);
};

function Devices({ status }: { status: SyncStatus }) {
  if (!status.devices.length) return <p class="muted">No device has written to the space yet.</p>;
  return (
    <table class="sync-devices" aria-label="Paired devices">
      <thead>
        <tr>
          <th>Device</th>
          <th>Last seen</th>
          <th>Holds</th>
        </tr>
      </thead>
      <tbody>
        {status.devices.map((d) => (
          <tr key={d.id} data-device={d.name}>
            <td>
              {d.name}
              {d.self && ' (this device)'}
              {d.left && ' — left'}
            </td>
            <td>{when(d.lastSeen)}</td>
            <td>
              {plural(d.sessions, 'session')}, {formatBytes(d.bytes)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Status({ status }: { status: SyncStatus }) {
  const provider = status.space?.kind === 's3' ? providerOfEndpoint(status.space.fields.endpoint ?? '') : providerById(status.space?.kind ?? 'folder');
  return (
    <div class="sync-status" data-state={status.state}>
      <p>
        Syncing with <strong data-testid="sync-where">{status.where}</strong> as <strong>{status.deviceName}</strong>.
      </p>
      <p role="status" data-testid="sync-state">
        {status.state === 'syncing'
          ? `Syncing… ${status.progress ? `${status.progress.phase} ${status.progress.done}/${status.progress.total}` : ''}`
          : `Last sync: ${when(status.lastSync)}${status.live ? '' : ' (paused while the app is hidden or offline)'}`}
      </p>
      {status.state === 'syncing' && <progress max={status.progress?.total || 1} value={status.progress?.done} aria-label="Sync progress" />}
      {status.error && <ProblemView problem={status.error} provider={provider} origin={location.origin} />}
      {status.refused.length > 0 && (
        <details>
          <summary>{status.refused.length} objects of the space were refused (nothing was applied from them)</summary>
          <ul>
            {status.refused.map((r) => (
              <li key={r.object}>{r.message}</li>
            ))}
          </ul>
        </details>
      )}
      {status.trashed.length > 0 && (
        <div class="sync-trashed">
          <p>Deleted on another device, moved to the trash here:</p>
          <ul>
            {status.trashed.map((t) => (
              <li key={t.undoToken}>
                {t.title}{' '}
                <button type="button" onClick={() => void library.syncUndoTrash({ undoToken: t.undoToken })}>
                  Undo
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p>
        The space holds <strong>{formatBytes(status.spaceBytes)}</strong>.{' '}
        <span class="muted" data-testid="sync-requests" data-requests={status.requests} data-next-poll={status.nextPollMs}>
          {status.requests} requests to the space since the app opened.
        </span>
      </p>
    </div>
  );
}

function Configured({ status }: { status: SyncStatus }) {
  const adding = useSignal(false);
  const note = useSignal<string | null>(null);
  const act = async (what: () => Promise<unknown>) => {
    note.value = null;
    try {
      await what();
    } catch (e) {
      note.value = describeError(e);
    }
  };
  return (
    <>
      <Status status={status} />
      <div class="sync-actions">
        <button type="button" onClick={() => void act(() => library.syncNow({}))} disabled={status.state === 'syncing'}>
          Sync now
        </button>
        <button type="button" onClick={() => void act(() => library.syncCheck({}))}>
          Check
        </button>
        <button type="button" class="primary" onClick={() => (adding.value = true)}>
          Add a device
        </button>
      </div>
      {adding.value && <AddDevice onClose={() => (adding.value = false)} />}
      <h3>Devices</h3>
      <Devices status={status} />
      <details class="sync-danger">
        <summary>Leave, or cut off a lost device</summary>
        <p>Leaving stops syncing this device; its library stays as it is.</p>
        <button type="button" onClick={() => void act(() => library.syncLeave({}))}>
          Leave the space
        </button>
        <p>
          A lost or stolen device: move to a new space with a new key. This device uploads its library there; pair the other devices again. Also replace the
          provider’s access key or password, which the lost device still holds.
        </p>
        <button type="button" onClick={() => void act(() => library.syncMoveSpace({}))}>
          Move to a new space
        </button>
      </details>
      {note.value && <p role="alert">{note.value}</p>}
    </>
  );
}

export function SyncScreen({ pair }: { pair?: string }) {
  const status = syncStatus.value;
  // A pairing link's fragment is taken once, then the address loses it (it holds the encrypted key).
  const link = useSignal(pair ? `${location.origin}${location.pathname}#pair=${pair}` : '');
  const pairing = useSignal(Boolean(pair));
  useEffect(() => {
    if (pair) navigate({ name: 'sync' }, { replace: true });
  }, [pair]);
  return (
    <main class="sync-screen" aria-label="Sync">
      <h2>Sync between your devices</h2>
      <p class="muted">Sessions travel through storage you own, end-to-end encrypted: the provider sees only opaque names and sizes. No server of ours.</p>
      {!status && <p role="status">Loading…</p>}
      {status?.configured && !pairing.value && <Configured status={status} />}
      {status && (!status.configured || pairing.value) && (
        <>
          <PairPanel
            initialLink={link.value}
            onPaired={() => {
              pairing.value = false;
              link.value = '';
            }}
          />
          {!status.configured && (
            <details class="sync-new" open={!pairing.value}>
              <summary>Or set up a new space (your first device)</summary>
              <SetupForm />
            </details>
          )}
        </>
      )}
    </main>
  );
}
