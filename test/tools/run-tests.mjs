// `npm test`: type-check and import rules, unit tests (vitest in Node), browser unit tests (vitest
// in Chromium, when present), then end-to-end tests (Playwright in Chromium against the built app).
// The last line is the total over all runners: `N passed, M failed[, K skipped]` (CI reads it).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
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

/** The steps under way, named every minute (their output comes when each ends). */
const running = new Set();
const heartbeat = setInterval(() => running.size && console.log(`… still running: ${[...running].join(', ')}`), 60_000);
heartbeat.unref();

/**
 * Runs a step with its output kept in reports/<name>.log and printed whole when it ends, so steps
 * that run side by side do not interleave their lines. Resolves to true when it exits with 0.
 */
function run(label, command, args, env = {}) {
  running.add(label);
  const name = label.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  const log = resolve(reports, `${name}.log`);
  const out = openSync(log, 'w');
  const began = Date.now();
  return new Promise((resolveStep) => {
    let settled = false;
    const done = (ok) => {
      if (!settled) resolveStep(ok);
      settled = true;
    };
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', out, out], env: { ...process.env, FORCE_COLOR: '1', ...env } });
    child.on('close', (code) => {
      running.delete(label);
      try {
        closeSync(out);
      } catch {}
      console.log(`\n── ${label} (${Math.round((Date.now() - began) / 1000)} s) ──`);
      process.stdout.write(readFileSync(log));
      done(code === 0);
    });
    child.on('error', (error) => {
      running.delete(label);
      console.log(`\n── ${label} ──\n${error.message}`);
      done(false);
    });
  });
}

/** Counts a step that is one check (type-check, lint, build). */
function countCheck(ok, label) {
  if (ok) total.passed++;
  else {
    total.failed++;
    failedSteps.push(label);
  }
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

// The steps run two at a time where they do not depend on each other: the machine has two cores,
// and a browser suite leaves part of them idle while it waits on its pages.
// 1. Types and import rules, format and lint (Biome; `npm run format` fixes what it reports), and
//    the production build shared by the build test and the end-to-end tests.
const [typesOk, lintOk, built] = await Promise.all([
  run('type-check and import rules', process.execPath, ['test/tools/typecheck.mjs']),
  run('format and lint (Biome)', 'npx', ['biome', 'ci', '.']),
  run('build', 'npx', ['vite', 'build', '--logLevel', 'warn']),
]);
countCheck(typesOk, 'typecheck');
countCheck(lintOk, 'format and lint');
if (!built) countCheck(false, 'build');

// 2. Unit tests in Node, beside the browser unit tests (OPFS store, worker) in Chromium.
const unitJson = resolve(reports, 'vitest.json');
const browserJson = resolve(reports, 'vitest-browser.json');
const hasBrowserSuite = existsSync(resolve(root, 'test/browser/vitest.config.ts'));
const [unitOk, browserOk] = await Promise.all([
  run('unit tests (Node)', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitJson}`]),
  hasBrowserSuite
    ? run('browser unit tests (Chromium)', 'npx', [
        'vitest',
        'run',
        '-c',
        'test/browser/vitest.config.ts',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${browserJson}`,
      ])
    : true,
]);
countVitest(unitJson, unitOk, 'unit');
if (hasBrowserSuite) countVitest(browserJson, browserOk, 'browser');

// 3. End-to-end tests against the built app.
if (built) {
  const ok = await run('end-to-end tests (Playwright, Chromium)', 'npx', ['playwright', 'test', '-c', 'test/e2e'], { RHO_PREBUILT: '1' });
  countPlaywright(resolve(reports, 'playwright.json'), ok);
}

console.log(failedSteps.length ? `\nFailed: ${[...new Set(failedSteps)].join(', ')}` : '\nAll steps passed.');
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed ? 1 : 0);
