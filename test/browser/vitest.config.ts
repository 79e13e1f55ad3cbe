import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { chromiumLaunchOptions } from '../tools/browser.ts';

/**
 * Browser unit tests (OPFS store, the real worker, Web Locks) in Chromium through vitest's browser
 * mode. `npm test` runs this config when it exists (test/tools/run-tests.mjs).
 */
/**
 * Vitest's browser mode rewrites every dynamic import() into a call through a global it defines
 * on the page only; inside our worker (which loads its markdown renderer with import()) that global
 * is missing. Define a pass-through there, in the worker entry, for tests only.
 */
function workerDynamicImports(): Plugin {
  return {
    name: 'rho-worker-dynamic-imports',
    transform(code, id) {
      if (!id.split('?')[0].replace(/\\/g, '/').endsWith('/src/worker/main.ts')) return null;
      return `globalThis.__vitest_browser_runner__ ??= { wrapDynamicImport: (load) => load() };\n${code}`;
    },
  };
}

/** highlight.js modules the worker's markdown renderer imports (read from it, so the list cannot drift). */
function highlightModules(): string[] {
  const source = readFileSync(fileURLToPath(new URL('../../src/worker/reader/markdown.ts', import.meta.url)), 'utf8');
  return [...source.matchAll(/from '(highlight\.js\/lib\/[\w/-]+)'/g)].map((m) => m[1]);
}

export default defineConfig({
  plugins: [workerDynamicImports()],
  root: fileURLToPath(new URL('../..', import.meta.url)),
  worker: { format: 'es' },
  // Found up front, so vite does not reload the page mid-run when the worker first imports them.
  optimizeDeps: {
    include: [
      'fflate',
      'fzstd',
      'idb-keyval',
      'zod',
      'markdown-it',
      '@secretlint/core',
      '@secretlint/secretlint-rule-preset-recommend',
      'age-encryption',
      'minisearch',
      // One copy of preact for components, hooks and signals (found late, each got its own).
      'preact',
      'preact/hooks',
      '@preact/signals',
      'preact/jsx-dev-runtime',
      ...highlightModules(),
    ],
  },
  server: { port: Number(process.env.BROWSER_TEST_PORT ?? 4195), strictPort: false },
  test: {
    include: ['test/browser/**/*.test.ts'],
    // One file at a time (vitest's default on two cores), which keeps about two thirds of one core
    // busy. Two at once (BROWSER_TEST_WORKERS=2, each file in its own browser context) take less
    // wall time, but the tests that time frames against the virtual list's 40 ms settle time can
    // fail when the two files share two cores.
    maxWorkers: Number(process.env.BROWSER_TEST_WORKERS ?? 1),
    testTimeout: 60_000,
    // Polls wait for an event; their limit is only how long a slow machine may take to get there.
    expect: { poll: { timeout: 30_000 } },
    browser: {
      enabled: true,
      headless: true,
      screenshotFailures: false,
      api: { port: Number(process.env.BROWSER_TEST_PORT ?? 4195) },
      provider: playwright({ launchOptions: chromiumLaunchOptions('test') }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
