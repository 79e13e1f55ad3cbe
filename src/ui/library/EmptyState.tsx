import { useSignal } from '@preact/signals';
import { importSample } from '../models/imports.ts';
import { needsIOSInstructions } from '../models/install.ts';
import { navigate } from '../router.ts';
import { ImportActions } from './ImportActions.tsx';
import { IOSInstallAdvice } from './InstallButton.tsx';

/** What the app is, the sample session, and every way to bring sessions in. */
export function EmptyState() {
  const busy = useSignal(false);
  const openSample = async () => {
    busy.value = true;
    const id = await importSample().finally(() => {
      busy.value = false;
    });
    if (id) navigate({ name: 'reader', id });
  };
  return (
    <section class="empty card" aria-labelledby="empty-title">
      <h2 id="empty-title">Your library is empty</h2>
      <p>
        Rho Sessions keeps the sessions of the <strong>pi</strong> and <strong>omp</strong> coding agents (their <code>.jsonl</code> files), and reads{' '}
        <strong>Claude Code</strong>’s and <strong>Codex</strong>’s (<code>~/.claude/projects/</code>, <code>~/.codex/sessions/</code>), on this device and lets
        you read them anywhere, offline: every message, tool call, branch and cost. Nothing leaves the device.
      </p>
      <button type="button" class="primary" disabled={busy.value} onClick={openSample}>
        Open the sample session
      </button>
      {needsIOSInstructions.value && <IOSInstallAdvice />}
      <h3>Bring your own sessions</h3>
      <ul class="ways">
        <li>
          <strong>Drop</strong> files or whole folders anywhere on this window (pi keeps them in <code>~/.pi/agent/sessions/</code>, omp in{' '}
          <code>~/.omp/agent/sessions/</code>; drop omp’s whole <code>~/.omp/agent/</code> folder to bring the images kept in its <code>blobs/</code>).
        </li>
        <li>
          <strong>Pick</strong> files or a folder with the buttons below.
        </li>
        <li>
          <strong>Share</strong> a session file to Rho Sessions from another app on Android (install the app first).
        </li>
        <li>
          <strong>Open with</strong> Rho Sessions from your file manager on a computer (installed app).
        </li>
        <li>
          <strong>Paste</strong> a session's text anywhere on this screen.
        </li>
      </ul>
      <ImportActions />
    </section>
  );
}
