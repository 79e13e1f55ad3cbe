import { existsSync } from 'node:fs';

/** Flags that let Debian's Chromium run headless as root on a machine with no outside network (docs/testing.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's full browser: what the benches and screenshots use, the Chromium people run. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/**
 * Debian's `chromium-headless-shell`: the same Blink and V8 without the browser's own UI. The tests use
 * it because every new context of the full browser starts a renderer for its omnibox popup (about
 * 1.7 s of CPU each, even headless); the end-to-end suite took 7.4 min with it and 2.2 min without.
 */
export const DEBIAN_HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/**
 * The Chromium to use: CHROMIUM_PATH, else Debian's (the headless shell first for tests, the full
 * browser first for measurements), else Playwright's own (undefined).
 */
export function chromiumPath(use: 'test' | 'measure' = 'measure'): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const order = use === 'test' ? [DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM] : [DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL];
  return order.find((path) => existsSync(path));
}

/** Launch options for Playwright and Vitest's browser mode. */
export function chromiumLaunchOptions(use: 'test' | 'measure' = 'measure') {
  return { executablePath: chromiumPath(use), args: CHROMIUM_ARGS };
}
