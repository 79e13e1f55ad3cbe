import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';

/** The port the built app is served on for end-to-end tests (npm start uses 4173). */
export const port = Number(process.env.E2E_PORT ?? 4174);

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  // Assertions wait for an event; the limit is only how long a slow machine may take to get there.
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '../../reports/playwright.json' }]],
  outputDir: '../../reports/e2e-artifacts',
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: chromiumLaunchOptions('test'),
    // A trace records DOM snapshots and a screencast for every action of every test, and took
    // 60 % of the suite's wall time here (two spec files: 132 s with it, 53 s without). CI keeps
    // only printed output, so it is off unless asked for: `E2E_TRACE=retain-on-failure npm test`.
    trace: (process.env.E2E_TRACE as 'on' | 'retain-on-failure' | undefined) ?? 'off',
    screenshot: 'only-on-failure',
    // The service worker's install precaches the whole build: about 0.7 s of CPU per test. Only the
    // specs about what it does (offline, the share target, updates, cached model code) allow it.
    serviceWorkers: 'block',
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    // Build unless the test runner already did (RHO_PREBUILT=1), then serve the production build, so
    // the service worker is the real one (`vite preview` without dist/ answers 404, which Playwright
    // reports only as a server timeout).
    command: `${process.env.RHO_PREBUILT ? '' : 'npm run build && '}node_modules/.bin/vite preview --port ${port} --strictPort`,
    cwd: '../..',
    url: `http://localhost:${port}`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
