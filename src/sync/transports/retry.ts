// Retrying what may pass by itself (no answer, a 5xx, a cut-off body) a few times, waiting a little
// longer each time; anything else (auth, missing bucket, tampered) fails at once. A request the
// browser refused as CORS is tried again too: a preflight whose connection dropped looks the same
// as a missing rule (the no-cors probe then reaches the server), and a real missing rule only costs
// the waits before it is reported.
import { SyncError, type Transport } from '../types.ts';

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    });
  });

export function retrying(inner: Transport, attempts = 4, firstWait = 100): Transport {
  async function again<T>(op: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let i = 1; ; i++) {
      try {
        return await op();
      } catch (error) {
        const passing = error instanceof SyncError && (error.code === 'network' || error.code === 'server' || error.code === 'cors-blocked');
        if (!passing || i >= attempts) throw error;
        await pause(firstWait * 2 ** (i - 1), signal);
      }
    }
  }
  return {
    kind: inner.kind,
    where: inner.where,
    put: (n, b, s) => again(() => inner.put(n, b, s), s),
    get: (n, s) => again(() => inner.get(n, s), s),
    // not tried again: the caller falls back to the whole object, which is
    ...(inner.head ? { head: inner.head } : {}),
    list: (p, s) => again(() => inner.list(p, s), s),
    delete: (n, s) => again(() => inner.delete(n, s), s),
  };
}
