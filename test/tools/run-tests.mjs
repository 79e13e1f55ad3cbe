// `npm test`: the build, format and lint, unit tests (vitest in Node), browser unit tests (vitest in
// Chromium, when present) beside the type-check and import rules, then end-to-end tests (Playwright
// in Chromium against the built app).
// The last line is the total over all runners: `N passed, M failed[, K skipped]` (CI reads it).
import { spawn } from 'node:child_process';
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
const startedAt = Date.now();
const cpuAtStart = childCpuSeconds();
const failedSteps = [];

/** A tool of node_modules/.bin, started directly: through npx each start costs about a CPU-second more. */
const bin = (name) => resolve(root, 'node_modules/.bin', name);

/**
 * CPU seconds used so far by the children this process waited for (and theirs), from Linux's
 * /proc/self/stat (cutime + cstime, in clock ticks of 1/100 s); undefined elsewhere. A process whose
 * parent did not wait for it is not counted: Chromium's, mostly, so the browser phases read low.
 */
function childCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Runs one step and resolves with whether it passed. Its output is live, or with `quiet` kept and
 * printed when it ends (a step run beside another must not interleave its lines with the other's).
 * Prints its wall time, and on Linux the CPU time its phase used.
 */
function run(label, command, args, { env = {}, quiet = false } = {}) {
  if (!quiet) console.log(`\n── ${label} ──`);
  const began = Date.now();
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
    const output = [];
    if (quiet) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      if (quiet) {
        console.log(`\n── ${label} ──`);
        process.stdout.write(Buffer.concat(output));
      }
      console.log(`── ${label}: ${Math.round((Date.now() - began) / 1000)} s`);
      done(code === 0);
    });
  });
}

/** Runs `steps` (functions returning promises) side by side; prints the CPU time the phase used. */
async function phase(...steps) {
  const cpuBefore = childCpuSeconds();
  const results = await Promise.all(steps.map((step) => step()));
  if (cpuBefore !== undefined) console.log(`── (${Math.round(childCpuSeconds() - cpuBefore)} CPU-s in this phase)`);
  return results;
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

/** Counts a step that has no test report of its own (type-check, lint, build) as one check. */
function countCheck(ok, label) {
  if (ok) total.passed++;
  else {
    total.failed++;
    failedSteps.push(label);
  }
}

// The order fills both cores. The Node unit tests keep both busy on their own; the browser unit
// tests keep about two thirds of one, so the type-check (one core) runs beside them. The build comes
// first, beside Biome: the Node unit tests read its service worker and the end-to-end tests serve it.

// 1. The production build, and format and lint (Biome; `npm run format` fixes what it reports).
const [built, linted] = await phase(
  () => run('build', bin('vite'), ['build', '--logLevel', 'warn']),
  () => run('format and lint (Biome)', bin('biome'), ['ci', '.'], { quiet: true }),
);
countCheck(built, 'build');
countCheck(linted, 'format and lint');

// 2. Unit tests in Node.
const unitJson = resolve(reports, 'vitest.json');
const [unitOk] = await phase(() => run('unit tests (Node)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitJson}`]));
countVitest(unitJson, unitOk, 'unit');

// 3. Browser unit tests (OPFS store, worker) in Chromium, and beside them types and import rules.
const browserJson = resolve(reports, 'vitest-browser.json');
const browser = existsSync(resolve(root, 'test/browser/vitest.config.ts'));
const [browserOk, typed] = await phase(
  () =>
    browser
      ? run('browser unit tests (Chromium)', bin('vitest'), [
          'run',
          '-c',
          'test/browser/vitest.config.ts',
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${browserJson}`,
        ])
      : Promise.resolve(true),
  () => run('type-check and import rules', process.execPath, ['test/tools/typecheck.mjs'], { quiet: true }),
);
if (browser) countVitest(browserJson, browserOk, 'browser');
countCheck(typed, 'typecheck');

// 4. End-to-end tests against the built app.
if (built) {
  const [ok] = await phase(() => run('end-to-end tests (Playwright, Chromium)', bin('playwright'), ['test', '-c', 'test/e2e'], { env: { RHO_PREBUILT: '1' } }));
  countPlaywright(resolve(reports, 'playwright.json'), ok);
}

const cpuTotal = cpuAtStart === undefined ? '' : `, ${Math.round(childCpuSeconds() - cpuAtStart)} CPU-s`;
console.log(`\nAll steps: ${Math.round((Date.now() - startedAt) / 1000)} s${cpuTotal}`);
console.log(failedSteps.length ? `\nFailed: ${[...new Set(failedSteps)].join(', ')}` : '\nAll steps passed.');
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed ? 1 : 0);
