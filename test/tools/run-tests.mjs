// `npm test`: type-check and import rules, unit tests (vitest in Node), browser unit tests (vitest
// in Chromium, when present), then end-to-end tests (Playwright in Chromium against the built app).
// The last line is the total over all runners: `N passed, M failed[, K skipped]` (CI reads it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { ensureAgeCli, ensureChromium, ensureDependencies, root } from './setup.mjs';

ensureDependencies();
process.env.CHROMIUM_PATH = ensureChromium();
ensureAgeCli();
const reports = resolve(root, 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const total = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

/** A tool of node_modules/.bin, started directly: through npx each start costs about a CPU-second more. */
const bin = (name) => resolve(root, 'node_modules/.bin', name);

/**
 * Runs one step, its output live. The steps run one after another: run side by side on two cores
 * (the unit tests beside the browser suite) they took longer than in turn.
 */
function run(label, command, args, env = {}) {
  console.log(`\n── ${label} ──`);
  const began = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`── ${label}: ${Math.round((Date.now() - began) / 1000)} s`);
  return result.status === 0;
}

/** Adds a vitest JSON report's counts; a runner that crashed before reporting counts as one failure. */
function countVitest(file, ok, label) {
  if (!existsSync(file)) {
    if (!ok) {
      total.failed++;
      failedSteps.push(label);
    }
    return;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  total.passed += r.numPassedTests;
  total.failed += r.numFailedTests;
  total.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  if (!ok && r.numFailedTests === 0) {
    total.failed++;
    failedSteps.push(label);
  } else if (r.numFailedTests) failedSteps.push(label);
}

function countPlaywright(file, ok) {
  if (!existsSync(file)) {
    if (!ok) {
      total.failed++;
      failedSteps.push('e2e');
    }
    return;
  }
  const s = JSON.parse(readFileSync(file, 'utf8')).stats;
  total.passed += s.expected;
  total.failed += s.unexpected + s.flaky;
  total.skipped += s.skipped;
  if (!ok && s.unexpected + s.flaky === 0) {
    total.failed++;
    failedSteps.push('e2e');
  } else if (s.unexpected + s.flaky) failedSteps.push('e2e');
}

// 1. Types and import rules: a failure counts as one failed check.
if (run('type-check and import rules', process.execPath, ['test/tools/typecheck.mjs'])) total.passed++;
else {
  total.failed++;
  failedSteps.push('typecheck');
}

// 1b. Format and lint (Biome): `npm run format` fixes what it reports.
if (run('format and lint (Biome)', bin('biome'), ['ci', '.'])) total.passed++;
else {
  total.failed++;
  failedSteps.push('format and lint');
}

// 2. The production build, shared by the build test and the e2e tests.
const built = run('build', bin('vite'), ['build', '--logLevel', 'warn']);
if (!built) {
  total.failed++;
  failedSteps.push('build');
}

// 3. Unit tests in Node.
const unitJson = resolve(reports, 'vitest.json');
const unitOk = run('unit tests (Node)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitJson}`]);
countVitest(unitJson, unitOk, 'unit');

// 4. Browser unit tests (OPFS store, worker) in Chromium.
if (existsSync(resolve(root, 'test/browser/vitest.config.ts'))) {
  const browserJson = resolve(reports, 'vitest-browser.json');
  const ok = run('browser unit tests (Chromium)', bin('vitest'), [
    'run',
    '-c',
    'test/browser/vitest.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${browserJson}`,
  ]);
  countVitest(browserJson, ok, 'browser');
}

// 5. End-to-end tests against the built app.
if (built) {
  const ok = run('end-to-end tests (Playwright, Chromium)', bin('playwright'), ['test', '-c', 'test/e2e'], { RHO_PREBUILT: '1' });
  countPlaywright(resolve(reports, 'playwright.json'), ok);
}

console.log(failedSteps.length ? `\nFailed: ${[...new Set(failedSteps)].join(', ')}` : '\nAll steps passed.');
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed ? 1 : 0);
