// What `npm start` and `npm test` do first on a fresh machine: install node_modules when absent
// and find (or install) a Chromium for Playwright. Plain Node, no dependencies.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '../..');

/** Runs `npm ci` when node_modules is missing (a fresh clone). */
export function ensureDependencies() {
  if (existsSync(resolve(root, 'node_modules/.package-lock.json'))) return;
  console.log('node_modules is missing: running npm ci …');
  const run = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) throw new Error('npm ci failed');
}

function playwrightChromium() {
  try {
    const out = execSync(`node -e "import('@playwright/test').then(m => console.log(m.chromium.executablePath()))"`, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return out && existsSync(out) ? out : undefined;
  } catch {
    return undefined;
  }
}

const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const FULL_CHROMIUM = '/usr/bin/chromium';

function aptInstall(pkg) {
  console.log(`Installing Debian's ${pkg} (apt-get install -y ${pkg}) …`);
  const quiet = `DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${pkg}`;
  return spawnSync('sh', ['-c', `${quiet} || (apt-get update -qq && ${quiet})`], { stdio: 'inherit' }).status === 0;
}

/**
 * Returns the Chromium the tests run in: CHROMIUM_PATH, else Debian's headless shell (the same
 * Blink without the browser's UI, whose omnibox renderer cost ~1.7 s of CPU per test context),
 * installed as root when apt is there, else Debian's full Chromium, else Playwright's own; prints
 * the command to run when none can be had.
 */
export function ensureChromium() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  const isRoot = process.getuid?.() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt && aptInstall('chromium-headless-shell') && existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  const found = existsSync(FULL_CHROMIUM) ? FULL_CHROMIUM : playwrightChromium();
  if (found) return found;
  if (isRoot && hasApt) {
    if (aptInstall('chromium') && existsSync(FULL_CHROMIUM)) return FULL_CHROMIUM;
  } else if (!hasApt) {
    console.log("No Chromium found: installing Playwright's (npx playwright install chromium) …");
    const run = spawnSync('npx', ['playwright', 'install', 'chromium'], { cwd: root, stdio: 'inherit' });
    const own = run.status === 0 ? playwrightChromium() : undefined;
    if (own) return own;
  }
  const command = hasApt ? 'sudo apt-get install -y chromium-headless-shell' : 'npx playwright install chromium';
  console.error(`No Chromium is available for the browser tests. Install one with:\n  ${command}\nor set CHROMIUM_PATH to a Chromium binary.`);
  process.exit(1);
}

/** The `age` command (Debian package `age`), for the test that our encrypted copies open with it; installed as root where apt is. */
export function ensureAgeCli() {
  if (spawnSync('age', ['--version']).status === 0) return true;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    console.log('The age command is missing (apt-get install -y age): the test against it will not run.');
    return false;
  }
  return aptInstall('age');
}
