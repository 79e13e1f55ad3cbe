// Joining a space from another device: the link (opened, pasted, or read from a QR code by the
// camera or from a picture), the code shown beside it, then where the sessions will be stored and
// a button named "Pair this device". Nothing is stored before that button.
import { useSignal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import { describeError, library } from '../models/calls.ts';
import { ProblemView } from './CheckResult.tsx';
import { type CheckView, defaultDeviceName, type PairingView } from './model.ts';
import { decodePicture, scanCamera } from './scan.ts';

export function PairPanel({ initialLink, onPaired }: { initialLink?: string; onPaired(): void }) {
  const link = useSignal(initialLink ?? '');
  const code = useSignal('');
  const name = useSignal(defaultDeviceName());
  const view = useSignal<PairingView | null>(null);
  const error = useSignal<string | null>(null);
  const failed = useSignal<CheckView | null>(null);
  const busy = useSignal<'open' | 'pair' | 'scan' | null>(null);
  const folder = useSignal<FileSystemDirectoryHandle | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const scanning = useRef<AbortController | null>(null);
  const linkField = useRef<HTMLInputElement>(null);
  // What the camera scan suggests while it goes on (scan.ts `ScanWatch`).
  const hint = useSignal<'no-code' | 'no-picture' | null>(null);

  const found = (text: string | null) => {
    if (text && /#pair=/.test(text)) {
      link.value = text;
      error.value = null;
    } else error.value = text ? 'That QR code is not a pairing link.' : 'No QR code was found in that picture.';
  };

  const scan = async () => {
    const controller = new AbortController();
    scanning.current = controller;
    busy.value = 'scan';
    hint.value = null;
    try {
      const watch = { noCodeYet: () => (hint.value = 'no-code'), noPicture: () => (hint.value = 'no-picture') };
      if (video.current) found(await scanCamera(video.current, controller.signal, watch));
    } catch (e) {
      if (!controller.signal.aborted) error.value = `The camera could not be used: ${describeError(e)}`;
    } finally {
      scanning.current = null;
      busy.value = null;
      hint.value = null;
    }
  };
  const stopScan = () => scanning.current?.abort();

  const open = async () => {
    busy.value = 'open';
    error.value = null;
    view.value = null;
    try {
      view.value = await library.syncOpenLink({ link: link.value.trim(), code: code.value });
    } catch (e) {
      error.value = describeError(e);
    } finally {
      busy.value = null;
    }
  };

  const pair = async () => {
    busy.value = 'pair';
    failed.value = null;
    try {
      const result = await library.syncPair({ deviceName: name.value, handle: folder.value ?? undefined });
      if (result.ok) onPaired();
      else failed.value = result;
    } catch (e) {
      error.value = describeError(e);
    } finally {
      busy.value = null;
    }
  };

  return (
    <section class="sync-pair" aria-label="Pair with a sync space">
      <h3>Pair with a space another device set up</h3>
      {!view.value && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void open();
          }}
        >
          <label class="sync-field">
            <span>Pairing link</span>
            <input
              ref={linkField}
              name="link"
              value={link.value}
              placeholder="…/#pair=e.…"
              onInput={(e) => (link.value = (e.currentTarget as HTMLInputElement).value)}
            />
          </label>
          <div class="sync-actions">
            <button type="button" onClick={() => (scanning.current ? stopScan() : void scan())}>
              {busy.value === 'scan' ? 'Stop the camera' : 'Scan with the camera'}
            </button>
            <label class="button">
              Read a picture of the code
              <input
                type="file"
                accept="image/*"
                hidden
                aria-label="Picture of a pairing QR code"
                onChange={async (e) => {
                  const file = (e.currentTarget as HTMLInputElement).files?.[0];
                  if (file) found(await decodePicture(file).catch(() => null));
                }}
              />
            </label>
          </div>
          <video ref={video} class="sync-camera" hidden={busy.value !== 'scan'} muted playsInline />
          {busy.value === 'scan' && hint.value && (
            <div class="sync-scan-hint" role="status">
              <p>
                {hint.value === 'no-code'
                  ? 'Still looking for a code. Hold it steady, let it fill the frame, and add more light — or paste the link instead.'
                  : 'The camera gives no picture. Check that no other app is using it — or paste the link instead.'}
              </p>
              <div class="sync-actions">
                <button type="button" onClick={stopScan}>
                  Cancel
                </button>
                <button
                  type="button"
                  onClick={() => {
                    stopScan();
                    linkField.current?.focus();
                  }}
                >
                  Paste the link
                </button>
              </div>
            </div>
          )}
          <label class="sync-field">
            <span>Code (shown beside the QR code)</span>
            <input
              name="code"
              autocomplete="off"
              spellcheck={false}
              value={code.value}
              placeholder="XXXXX-XXXXX"
              onInput={(e) => (code.value = (e.currentTarget as HTMLInputElement).value)}
            />
          </label>
          <button type="submit" class="primary" disabled={busy.value !== null || !link.value.trim()}>
            {busy.value === 'open' ? 'Opening the link (a few seconds)…' : 'Open the link'}
          </button>
        </form>
      )}
      {view.value && (
        <div class="sync-pair-confirm">
          <p>
            <strong>{view.value.from}</strong> invites this device to its sync space. Your sessions will be stored in:
          </p>
          <p class="sync-where" data-testid="pair-where">
            {view.value.where}
          </p>
          {view.value.space.kind === 'folder' && (
            <p>
              <button
                type="button"
                onClick={async () => {
                  folder.value = await (window as unknown as { showDirectoryPicker(o: object): Promise<FileSystemDirectoryHandle> })
                    .showDirectoryPicker({ id: 'rho-sync', mode: 'readwrite' })
                    .catch(() => null);
                }}
              >
                Choose that folder on this device…
              </button>{' '}
              {folder.value?.name}
            </p>
          )}
          <label class="sync-field">
            <span>This device’s name</span>
            <input name="deviceName" value={name.value} onInput={(e) => (name.value = (e.currentTarget as HTMLInputElement).value)} />
          </label>
          <div class="sync-actions">
            <button type="button" class="primary" disabled={busy.value !== null} onClick={() => void pair()}>
              {busy.value === 'pair' ? 'Pairing…' : 'Pair this device'}
            </button>
            <button type="button" onClick={() => (view.value = null)}>
              Cancel
            </button>
          </div>
          {failed.value?.error && <ProblemView problem={failed.value.error} origin={location.origin} />}
        </div>
      )}
      {error.value && <p role="alert">{error.value}</p>}
    </section>
  );
}
