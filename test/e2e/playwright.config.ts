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
    launchOptions: chromiumLaunchOptions(),
    trace: 'retain-on-failure',
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    // Build unless the test runner already did (RHO_PREBUILT=1), then serve the production build,
    // so the service worker is the real one (TOOLCHAIN.md pitfall 3).
    command: `${process.env.RHO_PREBUILT ? '' : 'npm run build && '}node_modules/.bin/vite preview --port ${port} --strictPort`,
    cwd: '../..',
    url: `http://localhost:${port}`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
