// A worker API over a memory store with providers pointed at a loopback replay server.
import { afterEach } from 'vitest';
import { parse, type Entry } from '../../../src/core/index.ts';
import { createApi } from '../../../src/worker/api.ts';
import { memoryKeyStore, type ProviderConfig } from '../../../src/worker/host/keys.ts';
import type { CallContext, Progress } from '../../../src/worker/protocol.ts';
import { startReplayServer, type ReplayServer } from '../../host/replay-server.ts';
import { memoryStore } from '../../storage/helpers.ts';

export const KEY = 'sk-ant-test-key-0123456789';

export async function hostSetup() {
  const server = await startReplayServer();
  const providers: ProviderConfig[] = [
    { id: 'anthropic-1', provider: 'anthropic', apiKey: KEY, baseUrl: server.baseUrl('anthropic'), models: ['claude-sonnet-4-5'] },
    { id: 'openai-1', provider: 'openai', apiKey: 'sk-openai-test', baseUrl: server.baseUrl('openai-responses'), models: ['gpt-4.1'] },
    { id: 'google-1', provider: 'google', apiKey: 'goog-test', baseUrl: server.baseUrl('google'), models: ['gemini-2.5-flash'] },
    { id: 'groq-1', provider: 'groq', apiKey: 'gsk-test', baseUrl: server.baseUrl('openai-chat'), models: ['llama-3.1-8b-instant'] },
  ];
  const { store, disk } = memoryStore({ now: () => 1_700_000_000_000 });
  let n = 0;
  const keys = memoryKeyStore(providers);
  const api = createApi({
    store,
    searchDisk: disk,
    now: () => new Date('2026-03-04T05:06:07.000Z'),
    randomId: () => (++n).toString(16).padStart(8, '0'),
    modelKeys: keys,
  });
  const entries = async (id: string): Promise<Entry[]> => parse(new TextDecoder().decode(await store.readBytes(id))).entries;
  return { server, api, store, disk, keys, entries };
}

/** A call context whose progress collects the streamed reply. */
export function streaming(signal: AbortSignal = new AbortController().signal) {
  const deltas: Array<{ kind: string; delta: string }> = [];
  const listeners: Array<() => void> = [];
  const ctx: CallContext = {
    signal,
    progress: (p: Progress) => {
      if (p.stream) deltas.push(p.stream);
      for (const l of listeners.splice(0)) l();
    },
  };
  const text = () =>
    deltas
      .filter((d) => d.kind === 'text')
      .map((d) => d.delta)
      .join('');
  /** Resolves once `test` holds (checked as each piece arrives). */
  const until = (test: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (test() ? resolve() : listeners.push(check));
      check();
    });
  return { ctx, deltas, text, until };
}

export type { ReplayServer };

/** A setup per test, its replay server closed after the test. */
export function useHostSetup() {
  let open: Awaited<ReturnType<typeof hostSetup>> | null = null;
  afterEach(async () => {
    await open?.server.close();
    open = null;
  });
  return async () => (open = await hostSetup());
}
