// The bench's Markdown page (`npm run bench -- --markdown FILE`) and its rows for what was not
// observed: a longest task with none reported says so instead of printing a 0 as a measurement.
import { describe, expect, test } from 'vitest';
import { observedRow } from '../bench/harness.ts';
import { benchMarkdown, type Machine } from '../bench/markdown.ts';

const machine: Machine = {
  cores: 2,
  cpuModel: 'Test CPU 3000',
  memoryGb: 7.75,
  system: 'linux/x64',
  node: 'v20.0.0',
  loadBefore: [1.5, 2, 2.25],
  loadAfter: [3, 2.5, 2.25],
  started: new Date('2026-01-02T03:04:05Z'),
  seconds: 61.4,
};

describe('observedRow', () => {
  test('with no task reported, a longest-task row has no value and says why; a "less than" target is met', () => {
    const row = observedRow({ name: 'longest task', value: 0, unit: 'ms', target: '< 50 ms', ok: true }, 0);
    expect(row.value).toBeNaN();
    expect(row.none).toBe('none observed (no task of 50 ms or more)');
    expect(row.ok).toBe(true);
    expect(JSON.parse(JSON.stringify(row)).value).toBeNull();
  });
  test('a count of none keeps its 0 and says so; a row with something observed is unchanged', () => {
    expect(observedRow({ name: 'tasks over 50 ms', value: 0, unit: 'tasks' }, 0)).toMatchObject({ value: 0, none: expect.any(String) });
    const seen = { name: 'longest task', value: 72, unit: 'ms', target: '< 50 ms', ok: false };
    expect(observedRow(seen, 3)).toEqual(seen);
  });
});

describe('benchMarkdown', () => {
  const page = benchMarkdown({
    machine,
    command: 'npm run bench -- core --markdown docs/bench.md',
    suites: [
      { name: 'core', description: 'parse and open' },
      { name: 'reader', description: 'the reader in Chromium' },
    ],
    ran: ['core'],
    rows: [
      { suite: 'core', name: 'parse | 10 MB', value: 12.345, unit: 'ms', baseline: 10, ratio: 1.2345, target: '≤ 1.5×', ok: true },
      { suite: 'core', name: 'memory', value: 3.5, unit: '× file', target: '≤ 3×', ok: false, note: 'median of 3\nchild processes' },
      { suite: 'core', name: 'longest task', value: Number.NaN, unit: 'ms', none: 'none observed (no task of 50 ms or more)' },
    ],
  });
  const lines = page.split('\n');

  test('heads the page with the machine, the date, the load before and after, and the command', () => {
    expect(lines).toContain('| CPU | 2 cores, Test CPU 3000 |');
    expect(lines).toContain('| memory | 7.8 GB |');
    expect(lines).toContain('| system, node | linux/x64, node v20.0.0 |');
    expect(lines).toContain('| date | 2026-01-02 03:04 UTC, the run took 61 s |');
    expect(lines).toContain('| load average (1 / 5 / 15 min) | before 1.50 / 2.00 / 2.25, after 3.00 / 2.50 / 2.25 |');
    expect(page).toContain('`npm run bench -- core --markdown docs/bench.md`');
  });

  test('one table per suite measured: value with its unit, baseline, ratio, target, met; a pipe in a name is escaped', () => {
    expect(lines).toContain('## core');
    expect(lines).toContain('| parse \\| 10 MB | 12.3 ms | 10 ms | 1.23× | ≤ 1.5× | yes |');
    expect(lines).toContain('| memory | 3.50 × file |  |  | ≤ 3× | **no** |');
    expect(lines).toContain('| longest task | none observed (no task of 50 ms or more) |  |  |  |  |');
    expect(lines).toContain('- memory: median of 3 child processes');
  });

  test('a suite not run is listed as not measured, with the command that measures it', () => {
    expect(lines).not.toContain('## reader');
    expect(lines).toContain('## Not measured in this run');
    expect(lines).toContain('- `reader` — the reader in Chromium (`npm run bench -- reader`)');
  });

  test('a section kept from an earlier page keeps the one line naming the run that measured it, through later runs', () => {
    const later = (previous: string, command: string) =>
      benchMarkdown({
        machine,
        command,
        suites: [
          { name: 'core', description: 'parse and open' },
          { name: 'reader', description: 'the reader' },
        ],
        ran: ['reader'],
        rows: [],
        previous,
      });
    const once = later(page, 'npm run bench -- reader');
    const twice = later(once, 'npm run bench -- reader --runs 2');
    for (const p of [once, twice]) {
      const core = p.slice(p.indexOf('## core'));
      expect(core.match(/^_Measured by /gm)).toHaveLength(1);
      expect(core).toContain('_Measured by `npm run bench -- core --markdown docs/bench.md` (2026-01-02 03:04 UTC, the run took 61 s), not in this run._');
      expect(core).toContain('| parse \\| 10 MB | 12.3 ms | 10 ms | 1.23× | ≤ 1.5× | yes |');
    }
  });
});
