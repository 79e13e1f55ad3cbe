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

/** Returns a Chromium path (CHROMIUM_PATH, Debian's, Playwright's own), installing one when none exists. */
export function ensureChromium() {
  const found = process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : playwrightChromium());
  if (found) return found;
  const isRoot = process.getuid?.() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt) {
    console.log("No Chromium found: installing Debian's (apt-get install -y chromium) …");
    const run = spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium'], {
      stdio: 'inherit',
    });
    if (run.status === 0 && existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  } else if (!hasApt) {
    console.log("No Chromium found: installing Playwright's (npx playwright install chromium) …");
    const run = spawnSync('npx', ['playwright', 'install', 'chromium'], { cwd: root, stdio: 'inherit' });
    const own = run.status === 0 ? playwrightChromium() : undefined;
    if (own) return own;
  }
  const command = hasApt ? 'sudo apt-get install -y chromium' : 'npx playwright install chromium';
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
  console.log("No age command found: installing Debian's (apt-get install -y age) …");
  const run = spawnSync(
    'sh',
    [
      '-c',
      'DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends age || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends age)',
    ],
    { stdio: 'inherit' },
  );
  return run.status === 0;
}
