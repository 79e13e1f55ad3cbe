// The Usage screen drawn ahead at idle (src/ui/usage-host.tsx `prerenderUsage`) in Chromium, with
// the app's styles: while the library is shown it is in the page but neither visible nor focusable,
// it is styled and laid out at idle, and its first open only shows its host: nothing inside the
// screen is created, changed or removed (the control, a screen not drawn ahead, draws on open).
import '../../../../src/ui/styles.css';
import { h, render } from 'preact';
import { afterEach, expect, test } from 'vitest';
import type { SessionSummary } from '../../../../src/ui/models/calls.ts';
import { usageRecord } from './usage-records.ts';
import { loaded, sessions } from '../../../../src/ui/models/library.ts';
import { prerenderUsage, UsageHost, usagePrerender } from '../../../../src/ui/usage-host.tsx';

const hosts: HTMLElement[] = [];
afterEach(() => {
  for (const host of hosts.splice(0)) {
    render(null, host);
    host.remove();
  }
});

/** `n` index records, each with one assistant turn, one a day over the last weeks. */
function records(n: number): SessionSummary[] {
  return Array.from({ length: n }, (_, i) => {
    const { record, usage } = usageRecord(i, 96);
    return { ...record, usage } as SessionSummary;
  });
}

/** The app's Usage host (App.tsx): a `.usage-host` div, hidden while the library is shown. */
function mountHidden(prerender: boolean): HTMLElement {
  const host = document.createElement('div');
  host.className = 'usage-host';
  host.hidden = true;
  document.body.append(host);
  hosts.push(host);
  render(h(UsageHost, { hidden: true, prerender }), host);
  return host;
}

/** Opens the screen as the app does on `#/usage`: the host shown, the screen rendered not hidden. */
function open(host: HTMLElement, prerender: boolean): void {
  host.hidden = false;
  render(h(UsageHost, { hidden: false, prerender }), host);
}

/** Every change under `root` while `act` runs (MutationObserver records, taken synchronously). */
function changesDuring(root: Node, act: () => void): MutationRecord[] {
  const observer = new MutationObserver(() => undefined);
  observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  act();
  const out = observer.takeRecords();
  observer.disconnect();
  return out;
}

/** Resolves when `host`'s class list has changed `n` times (the idle layout adds a class and removes it). */
function classChanges(host: HTMLElement, n: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const observer = new MutationObserver((records) => {
      seen += records.length;
      if (seen >= n) {
        observer.disconnect();
        resolve();
      }
    });
    observer.observe(host, { attributes: true, attributeFilter: ['class'] });
  });
}

test('drawn ahead at idle: hidden and unfocusable, laid out at idle, and the first open only shows its host', async () => {
  sessions.value = records(30);
  loaded.value = true;
  await prerenderUsage();
  expect(usagePrerender.value).toBe(true);

  const host = mountHidden(true);
  const laidOut = classChanges(host, 2);
  const screen = host.querySelector<HTMLElement>('main[data-usage-ready="30"]');
  // Drawn while the library is shown, with its figures and a year's heatmap…
  expect(screen).not.toBeNull();
  expect(screen!.querySelectorAll('svg.heatmap a').length).toBe(30);
  // …but not on screen, and nothing in it takes focus.
  expect(screen!.checkVisibility()).toBe(false);
  expect(host.getBoundingClientRect().height).toBe(0);
  const link = screen!.querySelector<HTMLAnchorElement>('svg.heatmap a')!;
  link.focus();
  expect(document.activeElement).not.toBe(link);
  // Styled and laid out in an idle period of its own (the host's class goes on and off in one task).
  await laidOut;
  expect(host.classList.contains('drawing-ahead')).toBe(false);

  const changes = changesDuring(host, () => open(host, true));
  // The open shows the host and touches nothing inside the screen: the same element, not redrawn.
  expect(changes.map((c) => `${c.type} ${(c.target as Element).className} ${c.attributeName}`)).toEqual(['attributes usage-host hidden']);
  expect(host.querySelector('main[data-usage-ready="30"]')).toBe(screen);
  expect(screen!.checkVisibility()).toBe(true);
  expect(host.getBoundingClientRect().height).toBeGreaterThan(0);
  const figure = [...screen!.querySelectorAll('.usage-figure')].find((f) => f.querySelector('dt')?.textContent?.startsWith('Sessions'));
  expect(figure?.querySelector('dd')?.textContent).toBe('30 · 30');
});

test('control: a screen not drawn ahead draws its first screenful when it opens, the sections under it after that frame', async () => {
  sessions.value = records(31);
  loaded.value = true;
  const host = mountHidden(false);
  expect(host.querySelector('main')).toBeNull();
  const changes = changesDuring(host, () => open(host, false));
  expect(changes.some((c) => c.type === 'childList' && [...c.addedNodes].some((n) => n.nodeName === 'MAIN'))).toBe(true);
  const screen = host.querySelector<HTMLElement>('main[data-usage-ready="31"]');
  expect(screen).not.toBeNull();
  // The first screenful (controls and totals) by the render of the open; the heatmap and the
  // breakdowns under it after that frame, in a render of their own.
  expect(screen!.querySelector('#usage-totals')).not.toBeNull();
  expect(screen!.querySelector('svg.heatmap')).toBeNull();
  expect(screen!.dataset.usageWhole).toBeUndefined();
  await new Promise<void>((resolve) => {
    const observer = new MutationObserver(() => {
      if (screen!.dataset.usageWhole === undefined) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(screen!, { attributes: true, attributeFilter: ['data-usage-whole'] });
  });
  expect(screen!.dataset.usageWhole).toBe('31');
  expect(screen!.querySelectorAll('svg.heatmap a').length).toBe(31);
  expect(screen!.querySelector('#usage-models')).not.toBeNull();
});
