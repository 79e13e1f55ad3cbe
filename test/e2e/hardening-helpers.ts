// Helpers for the hardening specs: a second client of the app's own worker script, driven from the
// test through the worker protocol (so a test can start an import, kill the page at a chosen
// point, and check the store from a fresh page), session generators that run in the page, and a
// look at OPFS from the page.
import type { Page } from '@playwright/test';

/** Installs, before the app loads, a recorder of the app's worker URL and `window.__rho`, a protocol client. */
export async function installDriver(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Native = window.Worker;
    // The app's own (Trusted Types-signed) script URL, kept as it came: a plain string would be refused.
    let url: string | URL | null = null;
    window.Worker = class extends Native {
      constructor(u: string | URL, o?: WorkerOptions) {
        super(u, o);
        url ??= u;
      }
    } as typeof Worker;
    let worker: Worker | null = null;
    let next = 1;
    const pending = new Map<number, { ok(v: unknown): void; fail(e: unknown): void }>();
    const rho = {
      ready: () => url !== null,
      progress: {} as Record<number, { done: number; total: number }>,
      results: {} as Record<number, unknown>,
      call(method: string, params: unknown): Promise<unknown> {
        if (!worker) {
          worker = new Native(url!, { type: 'module' });
          worker.onmessage = (e: MessageEvent) => {
            const m = e.data;
            const p = pending.get(m.id);
            if (!p) return;
            if (m.kind === 'progress') return void (rho.progress[m.id] = m.progress);
            pending.delete(m.id);
            if (m.kind === 'result') p.ok(m.value);
            else p.fail(m.error);
          };
        }
        const id = next++;
        return new Promise((ok, fail) => {
          pending.set(id, { ok, fail });
          worker!.postMessage({ kind: 'call', id, method, params });
        });
      },
      /** Starts a call without waiting; its result lands in results[id]. */
      start(method: string, params: unknown): number {
        const id = next;
        rho.results[id] = 'running';
        void rho.call(method, params).then(
          (v) => (rho.results[id] = { ok: v }),
          (e) => (rho.results[id] = { error: e }),
        );
        return id;
      },
    };
    (window as unknown as { __rho: typeof rho }).__rho = rho;
  });
}

/** Opens the app with the driver and waits until its worker script is known. */
export async function openApp(page: Page): Promise<void> {
  await installDriver(page);
  await page.goto('/');
  await page.waitForFunction(() => (window as unknown as { __rho: { ready(): boolean } }).__rho.ready());
}

/** Calls a worker API method through the driver's own worker. */
export function call<T = unknown>(page: Page, method: string, params: unknown = {}): Promise<T> {
  return page.evaluate(([m, p]) => (window as unknown as { __rho: { call(m: string, p: unknown): Promise<unknown> } }).__rho.call(m, p), [
    method,
    params,
  ] as const) as Promise<T>;
}

/**
 * Installs `window.__gen` in the page: deterministic session texts of about `kb` KB
 * (custom entries of ~1 KB in one chain after a user message), and sha256 of bytes.
 */
export async function installGenerators(page: Page): Promise<void> {
  await page.evaluate(() => {
    const T = '2026-05-06T07:08:09.000Z';
    const header = (id: string) => JSON.stringify({ type: 'session', version: 3, id, timestamp: T, cwd: '/home/u/crash' });
    const entry = (i: number, prefix: string) =>
      JSON.stringify({
        type: 'custom',
        id: `${prefix}${i.toString(16).padStart(7, '0')}`,
        parentId: i === 0 ? null : `${prefix}${(i - 1).toString(16).padStart(7, '0')}`,
        timestamp: T,
        customType: 'step',
        data: { i, text: `step ${i} `.repeat(90) },
      });
    const gen = {
      /** Lines [from, to) of session `id`'s chain (entry 0 is a root), each ending in "\n". */
      lines(id: string, from: number, to: number, prefix = 'c'): string {
        const out: string[] = [];
        if (from === 0) out.push(header(id));
        for (let i = from; i < to; i++) out.push(entry(i, prefix));
        return out.join('\n') + '\n';
      },
      /** The number of entries that make about `kb` KB. */
      entriesFor(kb: number): number {
        return Math.max(1, Math.round((kb * 1024) / 1000));
      },
      async sha(bytes: Uint8Array | string): Promise<string> {
        const b = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
        const d = new Uint8Array(await crypto.subtle.digest('SHA-256', b as Uint8Array<ArrayBuffer>));
        return Array.from(d, (x) => x.toString(16).padStart(2, '0')).join('');
      },
    };
    (window as unknown as { __gen: typeof gen }).__gen = gen;
  });
}

/**
 * What OPFS holds, seen from the page: file names and sizes per folder, the sha256 of the session
 * files named in `hash` (all when absent), and for the files named in `prefixes` the sha256 of their
 * first `prefixes[name]` bytes (read in the same locked read as the rest).
 */
export function opfsState(
  page: Page,
  hash?: string[],
  prefixes: Record<string, number> = {},
): Promise<{ sessions: Record<string, { size: number; sha: string; prefixSha?: string }>; tmp: string[]; spool: string[]; journal: string[]; index: unknown }> {
  return page.evaluate(
    async ({ hash, prefixes }) => {
      const root = await navigator.storage.getDirectory();
      const dir = async (name: string) => {
        try {
          return await root.getDirectoryHandle(name);
        } catch {
          return null;
        }
      };
      const sha = async (b: ArrayBuffer) =>
        Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', b)), (x) => x.toString(16).padStart(2, '0')).join('');
      const sessions: Record<string, { size: number; sha: string; prefixSha?: string }> = {};
      // Each file is read under the app's own write lock for that session (the name store.ts uses), so
      // a worker still finishing a write (a killed page's, or the reopened app's recovery) is waited
      // for rather than read half-way; a file swapped in while read (NotReadableError) is read again.
      const lockName = (name: string) => `rho-sessions:write:${decodeURIComponent(name.slice(0, -'.jsonl'.length)).replace(/~\d+$/, '')}`;
      const s = await dir('sessions');
      if (s)
        for await (const [name, h] of (s as unknown as { entries(): AsyncIterable<[string, FileSystemFileHandle]> }).entries()) {
          sessions[name] = await navigator.locks.request(lockName(name), async () => {
            for (let attempt = 0; ; attempt++) {
              try {
                const f = await h.getFile();
                const bytes = !hash || hash.includes(name) || name in prefixes ? await f.arrayBuffer() : null;
                const out: { size: number; sha: string; prefixSha?: string } = {
                  size: f.size,
                  sha: bytes && (!hash || hash.includes(name)) ? await sha(bytes) : '',
                };
                if (bytes && name in prefixes) out.prefixSha = await sha(bytes.slice(0, prefixes[name]));
                return out;
              } catch (e) {
                if (attempt >= 20 || (e as Error).name !== 'NotReadableError') throw e;
                await new Promise((r) => setTimeout(r, 100));
              }
            }
          });
        }
      const names = async (n: string) => {
        const d = await dir(n);
        const out: string[] = [];
        if (d) for await (const k of (d as unknown as { keys(): AsyncIterable<string> }).keys()) out.push(k);
        return out;
      };
      let index: unknown = null;
      try {
        index = JSON.parse(await (await (await root.getFileHandle('index.json')).getFile()).text());
      } catch {
        index = null;
      }
      return { sessions, tmp: await names('tmp'), spool: await names('spool'), journal: await names('journal'), index };
    },
    { hash, prefixes },
  );
}

/** A small seeded PRNG (mulberry32), so a failing kill point can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
