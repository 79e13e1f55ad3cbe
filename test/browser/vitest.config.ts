import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { chromiumLaunchOptions } from '../tools/browser.ts';

/**
 * Browser unit tests (OPFS store, the real worker, Web Locks) in Chromium through vitest's browser
 * mode. `npm test` runs this config when it exists (test/tools/run-tests.mjs).
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  worker: { format: 'es' },
  // Found up front, so vite does not reload the page mid-run when the worker first imports them.
  optimizeDeps: { include: ['fflate', 'idb-keyval', 'zod', 'markdown-it', 'highlight.js/lib/common'] },
  server: { port: Number(process.env.BROWSER_TEST_PORT ?? 4195), strictPort: false },
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 60_000,
    browser: {
      enabled: true,
      headless: true,
      screenshotFailures: false,
      api: { port: Number(process.env.BROWSER_TEST_PORT ?? 4195) },
      provider: playwright({ launchOptions: chromiumLaunchOptions() }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
