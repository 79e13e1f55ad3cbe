// What the virtual list's browser tests share: a host of a phone-ish 600 × 400 px box (with the
// list's own layout rules when asked), removed after each test, and a way to spend main-thread time.
import { render } from 'preact';
import { afterEach } from 'vitest';

const LIST_CSS = '.vl { flex: 1; overflow-y: auto; min-height: 0 } .vl-inner { position: relative } .vl-window { position: absolute; inset: 0 0 auto 0 }';

const hosts: HTMLElement[] = [];
const mounts: HTMLElement[] = [];
// Every list unmounted, not only its host removed: a detached list would go on drawing rows (and
// spending its rows' time) in the tasks of the tests after it.
afterEach(() => {
  for (const mount of mounts.splice(0)) render(null, mount);
  for (const host of hosts.splice(0)) {
    render(null, host);
    host.remove();
  }
});

/** A 600 × 400 px flex column in the document, unmounted and removed after the test; `withCss`: the list's layout rules inside it. */
export function listHost(withCss = false): HTMLElement {
  const host = document.createElement('div');
  host.style.cssText = 'height: 600px; width: 400px; display: flex; flex-direction: column';
  document.body.append(host);
  hosts.push(host);
  if (withCss) {
    const css = document.createElement('style');
    css.textContent = LIST_CSS;
    host.append(css);
  }
  return host;
}

/** A flex box for a list inside `host`, unmounted after the test. */
export function mountIn(host: HTMLElement): HTMLElement {
  const mount = document.createElement('div');
  mount.style.cssText = 'flex: 1; display: flex; flex-direction: column; min-height: 0';
  host.append(mount);
  mounts.push(mount);
  return mount;
}

/** A flex box for a list inside a new host with the list's layout rules, unmounted after the test. */
export function listMount(): HTMLElement {
  return mountIn(listHost(true));
}

/** Spends `ms` of main-thread time (a row as costly as a rich one on a slow phone). */
export function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* work */
  }
}
