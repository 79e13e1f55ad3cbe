// The Usage screen made ready at idle (src/ui/usage-host.tsx) in Chromium: once `prepareUsage()`
// has run, the screen draws in the very render that mounts it (its chunk is already loaded) and
// reads no record's usage digest (its report was computed ahead, from the same records); records
// it did not see are computed when the screen opens (the control: the count does see computing).
import { h, render } from 'preact';
import { afterEach, expect, test } from 'vitest';
import type { SessionSummary } from '../../../../src/ui/models/calls.ts';
import { usageRecord } from './usage-records.ts';
import { loaded, sessions } from '../../../../src/ui/models/library.ts';
import { prepareUsage, UsageHost } from '../../../../src/ui/usage-host.tsx';

const hosts: HTMLElement[] = [];
afterEach(() => {
  for (const host of hosts.splice(0)) {
    render(null, host);
    host.remove();
  }
});

/** `n` index records with usage in the last few days; every read of a record's digest counts in `reads`. */
function records(n: number, reads: { n: number }): SessionSummary[] {
  return Array.from({ length: n }, (_, i) => {
    const { record, usage } = usageRecord(i, 4, i % 2 ? 'omp' : 'pi');
    Object.defineProperty(record, 'usage', {
      enumerable: true,
      get() {
        reads.n++;
        return usage;
      },
    });
    return record;
  });
}

function mount(): HTMLElement {
  const host = document.createElement('div');
  document.body.append(host);
  hosts.push(host);
  render(h(UsageHost, { hidden: false }), host);
  return host;
}

test('after the idle preparation the first open draws at once and reads no record', async () => {
  const reads = { n: 0 };
  sessions.value = records(40, reads);
  loaded.value = true;
  await prepareUsage();
  expect(document.documentElement.dataset.usagePrepared).toBe('40');
  // The preparation computed the report from the records' digests.
  const prepared = reads.n;
  expect(prepared).toBeGreaterThan(0);

  const host = mount();
  // Drawn by the render that mounted it (no wait for the chunk), from what was computed at idle.
  const screen = host.querySelector('main[data-usage-ready="40"]');
  expect(screen).not.toBeNull();
  expect(reads.n).toBe(prepared);
  const figure = (name: string) => [...host.querySelectorAll('.usage-figure')].find((f) => f.querySelector('dt')?.textContent?.startsWith(name));
  expect(figure('Sessions')?.querySelector('dd')?.textContent).toBe('40 · 40');
  expect(figure('Tokens')?.querySelector('dd')?.textContent).toMatch(/\(4,400\)$/);
});

test('control: records the preparation did not see are computed when the screen opens', async () => {
  const reads = { n: 0 };
  sessions.value = records(41, reads);
  const host = mount();
  expect(host.querySelector('main[data-usage-ready="41"]')).not.toBeNull();
  expect(reads.n).toBeGreaterThan(0);
});
