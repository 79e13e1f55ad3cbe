/**
 * `npm run bench` — speed and memory, measured side by side in one run and printed as a table of
 * ratios. Never a timed assertion in a test: this script only reports (exit code 0 unless a suite
 * crashes; targets missed are marked in the table and in the JSON, not failed).
 *
 *   npm run bench                         every suite, its default sizes
 *   npm run bench -- core                 only the suites named (several allowed)
 *   npm run bench -- core --sizes 10,100  session sizes in MB (generated into fixtures/generated/)
 *   npm run bench -- --runs 5             timed rounds per variant (default: per suite/size)
 *   npm run bench -- --json out.json      also write every row as JSON: [{name, value, unit, baseline?, ratio?, target?, ok?, none?}]
 *   npm run bench -- --markdown docs/bench.md   also write the figures as a Markdown page with the machine they ran on
 *                                         (the page's sections of suites not run now are kept, marked with the run that measured them)
 *   npm run bench -- --list               list the suites
 *   npm run bench -- linked               linked folders: re-sync of 1,000 unchanged sessions vs importing them
 *   npm run bench -- share-review         the share review's scan speed (MB/s) and the cleaned copy
 *   npm run bench -- usage                the Usage screen for a 2,000-session library (usage.bench.ts; --sizes N sessions)
 *
 * SUITE INTERFACE (for anyone adding measurements, e.g. browser suites via Playwright):
 *   - Create `test/bench/<name>.bench.ts`; run.ts discovers every `*.bench.ts` in this folder.
 *   - Default-export a `BenchSuite` (or an array of them) from ./harness.ts:
 *       export default {
 *         name: 'storage', description: 'OPFS import/export in Chromium', defaultSizes: [10],
 *         async run(ctx) { ...; ctx.row({ name: 'import 10 MB', value: ms, unit: 'ms', baseline, ratio, target }); },
 *       } satisfies BenchSuite;
 *   - `ctx.sizes` is the `--sizes` list (null when not given: use `defaultSizes`), `ctx.runs` the
 *     `--runs` value (null: pick your own), `ctx.log` prints progress to stderr.
 *   - Measure ratios within your own run (baseline and candidate interleaved: `compare()` in
 *     harness.ts); measure memory in a child process (`measureMemory()` + mem-child.ts tasks).
 *   - Big inputs: `ensureGenerated(sizeMb)` from test/gen/fixtures.ts writes and reuses
 *     fixtures/generated/synthetic-pi-<N>mb-s1.jsonl (git-ignored).
 *   - A browser suite launches Chromium itself (`chromium.launch({ executablePath: '/usr/bin/chromium', args })`
 *     per docs/testing.md), times inside the page with performance.now(), and reports rows the same way.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BenchContext, type BenchRow, type BenchSuite, fmt, reportedRow } from './harness.ts';
import { benchMarkdown, machineNow, type SuiteRow } from './markdown.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function loadSuites(): Promise<BenchSuite[]> {
  const dir = dirname(fileURLToPath(import.meta.url));
  const suites: BenchSuite[] = [];
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.bench.ts'))
    .sort()) {
    const mod = (await import(pathToFileURL(join(dir, f)).href)) as { default: BenchSuite | BenchSuite[] };
    suites.push(...(Array.isArray(mod.default) ? mod.default : [mod.default]));
  }
  return suites;
}

/** The rows as an aligned text table. */
export function formatTable(rows: BenchRow[]): string {
  const head = ['measurement', 'value', 'unit', 'baseline', 'ratio', 'target', 'met'];
  const body = rows.map((r) => [
    r.name,
    r.none ?? fmt(r.value),
    r.none === undefined ? r.unit : '',
    fmt(r.baseline),
    r.ratio === undefined ? '' : fmt(r.ratio) + '×',
    r.target ?? '',
    r.ok === undefined ? '' : r.ok ? 'yes' : 'NO',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i === 2 || i === 5 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const notes = rows.filter((r) => r.note).map((r) => `  * ${r.name}: ${r.note}`);
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line), ...(notes.length ? ['', ...notes] : [])].join('\n');
}

async function main(): Promise<void> {
  const suites = await loadSuites();
  if (process.argv.includes('--list')) {
    for (const s of suites) console.log(`${s.name.padEnd(12)} ${s.description}`);
    return;
  }
  const valueFlags = new Set(['--sizes', '--runs', '--json', '--markdown']);
  const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !valueFlags.has(all[i - 1]));
  const unknown = positional.filter((n) => !suites.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown suite(s): ${unknown.join(', ')} (have: ${suites.map((s) => s.name).join(', ')})`);
  const chosen = positional.length ? suites.filter((s) => positional.includes(s.name)) : suites;
  const sizes = arg('--sizes')?.split(',').map(Number) ?? null;
  const runs = arg('--runs') ? Number(arg('--runs')) : null;
  const rows: SuiteRow[] = [];
  const machine = machineNow();
  const t0 = performance.now();
  for (const suite of chosen) {
    const ctx: BenchContext = {
      sizes: sizes ?? suite.defaultSizes ?? null,
      runs,
      row: (given) => {
        const r = reportedRow(given);
        rows.push({ ...r, suite: suite.name });
        process.stderr.write(`  ${r.name}: ${r.none ?? `${fmt(r.value)} ${r.unit}`}${r.ratio !== undefined ? ` (${fmt(r.ratio)}×)` : ''}\n`);
      },
      log: (m) => process.stderr.write(`[${suite.name}] ${m}\n`),
    };
    ctx.log(`start (sizes ${ctx.sizes?.join(',') ?? 'default'})`);
    await suite.run(ctx);
  }
  console.log(`\nnode ${process.version}, ${process.platform}/${process.arch}, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  console.log(formatTable(rows));
  const json = arg('--json');
  if (json) {
    writeFileSync(
      json,
      JSON.stringify(
        rows.map(({ suite: _suite, ...r }) => r),
        null,
        2,
      ) + '\n',
    );
    console.log(`\nwrote ${json}`);
  }
  const markdown = arg('--markdown');
  if (markdown) {
    machine.loadAfter = loadavg();
    machine.seconds = (performance.now() - t0) / 1000;
    const command = `${process.env.BENCH_BASELINE ? `BENCH_BASELINE=${process.env.BENCH_BASELINE} ` : ''}npm run bench -- ${process.argv.slice(2).join(' ')}`;
    // The page's sections of suites not run now are kept (under the run that measured them).
    const previous = existsSync(markdown) ? readFileSync(markdown, 'utf8') : undefined;
    writeFileSync(markdown, benchMarkdown({ machine, rows, suites, ran: chosen.map((s) => s.name), command, previous }));
    console.log(`\nwrote ${markdown}`);
  }
}

await main();
