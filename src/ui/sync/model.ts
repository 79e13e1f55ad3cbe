// The page's side of sync: follows the worker's status (a long poll that answers on every change),
// tells the worker when the page is visible and online (rounds run only then), syncs at once on
// focus and when back online, and refreshes the library and the linked folders after a round
// brought changes. Credentials go to the worker once and never come back.
import { signal } from '@preact/signals';
import type { CheckView, PairingView, SyncStatus } from '../../worker/sync/api.ts';
import { library } from '../models/calls.ts';
import { refreshLibrary } from '../models/library.ts';
import { syncAllLinked } from '../linked/folders.ts';

export type { CheckView, PairingView, SyncProblem, SyncStatus } from '../../worker/sync/api.ts';

/** The worker's sync status (null until it first answers). */
export const syncStatus = signal<SyncStatus | null>(null);

const pageState = () => ({ visible: document.visibilityState === 'visible', online: navigator.onLine });

let followed = false;

/** Starts following the sync status and the page's visibility (once, at boot). */
export function followSync(): void {
  if (followed) return;
  followed = true;
  void loop();
  const tell = () => void library.syncPage(pageState()).catch(() => undefined);
  tell();
  document.addEventListener('visibilitychange', tell);
  window.addEventListener('online', tell);
  window.addEventListener('offline', tell);
  // Focus: a round at once (the user is looking).
  window.addEventListener('focus', () => {
    if (syncStatus.value?.configured && navigator.onLine) void library.syncNow({}).catch(() => undefined);
  });
}

const nextFrame = () =>
  new Promise<void>((resolve) => {
    requestAnimationFrame(() => resolve());
    setTimeout(resolve, 250);
  });

async function loop(): Promise<void> {
  let after = -1;
  // The round whose changes were last seen here (null: none seen yet, the list read at boot has them).
  let appliedRound: number | null = null;
  for (;;) {
    try {
      const status = await library.syncWatch({ after, seenRound: appliedRound });
      after = status.version;
      syncStatus.value = status;
      // One status drawn per frame at most: a first sync's many changes (each request, each
      // pack) meanwhile come as one answer. A hidden page draws no frames: a timer then.
      await nextFrame();
      // A round that changed the library here: those sessions in the list, and the linked folders
      // (pure appends go back by themselves where allowed). Once per such round, not per status.
      if (status.appliedRound !== appliedRound) {
        const changed = appliedRound !== null && status.applied.length > 0;
        appliedRound = status.appliedRound;
        if (changed) {
          void refreshLibrary(status.applied.map((a) => a.copy));
          void syncAllLinked();
        }
      }
    } catch {
      // The worker restarted or refused: follow again from the start.
      after = -1;
      await new Promise((r) => requestAnimationFrame(r));
    }
  }
}

let deviceName: string | null = null;

/** The name this device gives itself, from what the browser tells of the platform. */
export function defaultDeviceName(): string {
  deviceName ??= nameOf(navigator.userAgent);
  return deviceName;
}

function nameOf(ua: string): string {
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac/.test(ua)
        ? 'Mac'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : 'device';
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : 'browser';
  return `${browser} on ${os}`;
}

/** The app's address for pairing links (this page without its fragment). */
export function appAddress(): string {
  return location.href.split('#')[0];
}

/** A short headline for each kind of failure (the message names the provider's answer and the fix). */
export const HEADLINE: Record<string, string> = {
  'cors-blocked': 'CORS blocked',
  auth: 'Wrong key',
  'no-such-bucket': 'No such bucket',
  'clock-skew': 'Clock skew',
  'forbidden-write': 'No write permission',
  network: 'No answer',
  server: 'The provider answered with an error',
  'not-found': 'Not found',
  tampered: 'Refused object',
  'no-space': 'No sync space there',
  'bad-code': 'Wrong code',
  local: 'Could not write here',
};

/** The fix for each kind of failure, as a step the user takes. */
export const FIX: Record<string, string> = {
  'cors-blocked': 'Add the CORS rule below to the bucket (or server), then press Check again.',
  auth: 'Check the access key id and the secret (or the user and app password): copy them again from the provider.',
  'no-such-bucket': 'Check the bucket name, the endpoint and the region (or the WebDAV folder’s URL): create the bucket if it does not exist.',
  'clock-skew': 'This device’s clock is off: turn on “set time automatically” in the system settings, then press Check again.',
  'forbidden-write': 'The key may read but not write: give it read, write and delete permission on this bucket (or folder).',
  network: 'Check the connection and the endpoint’s address; sync resumes by itself when it answers.',
  server: 'The provider had a problem; sync tries again by itself.',
  'no-space': 'Pair this device from a device of that space, or choose another prefix or folder.',
  'bad-code': 'Type the code shown beside the QR code on the other device.',
};

export type { CheckView as Check };

/** Checks settings typed in the form (nothing is stored). */
export function checkSpace(space: Parameters<typeof library.syncCheck>[0]): Promise<CheckView> {
  return library.syncCheck(space);
}

export function openLink(link: string, code: string): Promise<PairingView> {
  return library.syncOpenLink({ link, code });
}
