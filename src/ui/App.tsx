import { signal } from '@preact/signals';
import sampleUrl from '../../fixtures/samples/welcome.jsonl?url';
import { applyUpdate, updateAvailable } from './sw-bridge.ts';
import { worker } from './worker.ts';

const status = signal<string>('');

async function openSample() {
  status.value = 'Opening the sample…';
  const bytes = new Uint8Array(await (await fetch(sampleUrl)).arrayBuffer());
  const reply = await worker.ping({ message: `${bytes.byteLength} bytes` });
  status.value = `Sample loaded in the ${reply.at}: ${reply.pong}.`;
}

/** The app shell: header, library, update prompt. */
export function App() {
  return (
    <>
      <header class="app-header">
        <img src="/icons/icon.svg" alt="" width="28" height="28" />
        <h1>Rho Sessions</h1>
      </header>
      {updateAvailable.value && (
        <div class="update" role="status">
          Update available — <button onClick={applyUpdate}>Reload</button>
        </div>
      )}
      <main class="library">
        <section class="empty" aria-labelledby="empty-title">
          <h2 id="empty-title">Your library is empty</h2>
          <p>Rho Sessions keeps coding-agent sessions (pi and omp JSONL files) on this device and lets you read them anywhere, offline.</p>
          <button class="primary" onClick={openSample}>Open sample session</button>
          <p class="status" role="status">{status.value}</p>
        </section>
      </main>
    </>
  );
}
