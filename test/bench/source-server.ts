// The repository's sources served by vite's dev server (no build), as the in-page benches and the
// profiles load them: the worker from src/, the bench's page modules from test/bench/.
import { resolve } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';

/** Serves `root` (a checkout) on `port`, listening once this resolves; `strictPort: false` takes the next free port. */
export async function serveSources(root: string, port: number, strictPort = true): Promise<ViteDevServer> {
  const server = await createServer({
    root,
    configFile: resolve(root, 'vite.config.ts'),
    logLevel: 'warn',
    server: { port, strictPort, hmr: false, watch: null },
    optimizeDeps: { include: ['fflate', 'idb-keyval', 'zod'] },
  });
  await server.listen();
  return server;
}
