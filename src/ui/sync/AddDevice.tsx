// "Add a device": a QR code and a link carrying the space's settings and key, encrypted with the
// short code shown beside them. The QR encoder (`qr`) loads only when this opens.
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { describeError, library } from '../models/calls.ts';
import { appAddress } from './model.ts';

/** The QR code as SVG rectangles (no markup string: nothing for Trusted Types to sign). */
function QrCode({ cells, label }: { cells: boolean[][]; label: string }) {
  const n = cells.length;
  let d = '';
  cells.forEach((row, y) => {
    row.forEach((on, x) => {
      if (on) d += `M${x + 4} ${y + 4}h1v1h-1z`;
    });
  });
  return (
    <svg class="sync-qr" viewBox={`0 0 ${n + 8} ${n + 8}`} role="img" aria-label={label} shape-rendering="crispEdges">
      <rect width={n + 8} height={n + 8} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}

export function AddDevice({ onClose }: { onClose(): void }) {
  const made = useSignal<{ link: string; code: string; cells: boolean[][] } | null>(null);
  const error = useSignal<string | null>(null);
  const copied = useSignal(false);
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const [{ link, code }, qr] = await Promise.all([library.syncPairingLink({ app: appAddress() }), import('qr')]);
        const cells = qr.default(link, 'raw', { ecc: 'low' });
        if (live) made.value = { link, code, cells };
      } catch (e) {
        if (live) error.value = describeError(e);
      }
    })();
    return () => {
      live = false;
    };
  }, []);
  const m = made.value;
  return (
    <section class="sync-add" aria-label="Add a device">
      <h3>Add a device</h3>
      {!m && !error.value && <p role="status">Locking the link with a new code…</p>}
      {error.value && <p role="alert">{error.value}</p>}
      {m && (
        <>
          <p>On the other device, open Sync and scan this code (or photograph it and read the picture), or open the link; then type the code.</p>
          <QrCode cells={m.cells} label="Pairing QR code" />
          <p class="sync-code">
            Code: <strong data-testid="pair-code">{m.code}</strong>
          </p>
          <label class="sync-field">
            <span>Link</span>
            <input readOnly value={m.link} data-testid="pair-link" onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
          </label>
          <div class="sync-actions">
            <button
              type="button"
              onClick={async () => {
                await navigator.clipboard?.writeText(m.link).catch(() => undefined);
                copied.value = true;
              }}
            >
              {copied.value ? 'Copied' : 'Copy the link'}
            </button>
            <button type="button" onClick={onClose}>
              Done
            </button>
          </div>
          <p class="muted">Whoever has both the link and the code can read and write your sessions: share them only with your own devices.</p>
        </>
      )}
    </section>
  );
}
