// The repository's sources served by vite's dev server (no build), as the in-page benches and the
// profiles load them: the worker from src/, the bench's page modules from test/bench/.
import { resolve } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';

/**
 * What vite pre-bundles, found by crawling every page and worker module before the first request. A
 * dependency found only when the worker first imports it (age-encryption, pi-ai, markdown-it,
 * highlight.js's languages…) would make vite bundle again and ask for a reload that a bench's page,
 * served without HMR, never takes: its next imports answer 504 and the run waits forever. A checkout
 * whose vite has never run (no node_modules/.vite) meets that on its first run.
 */
export const benchOptimizeDeps = { entries: ['index.html', 'src/**/*.{ts,tsx}', '!src/cli/**', 'test/bench/*-page.ts'] };

/** Serves `root` (a checkout) on `port`, listening once this resolves; `strictPort: false` takes the next free port. */
export async function serveSources(root: string, port: number, strictPort = true): Promise<ViteDevServer> {
  const server = await createServer({
    root,
    configFile: resolve(root, 'vite.config.ts'),
    logLevel: 'warn',
    server: { port, strictPort, hmr: false, watch: null },
    optimizeDeps: benchOptimizeDeps,
  });
  await server.listen();
  return server;
}
