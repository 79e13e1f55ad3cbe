/**
 * `npm run bench -- --markdown docs/bench.md`: the run's figures as one Markdown page, headed by the
 * machine it ran on (cores, memory, CPU model, system, node, date, load average before and after),
 * with a table per suite and the suites this run did not measure named as such.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { type BenchRow, fmt } from './harness.ts';

/** A row as measured, with the suite that reported it. */
export interface SuiteRow extends BenchRow {
  suite: string;
}

/** What the page says about the machine: read once before the run and once after it. */
export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGb: number;
  system: string;
  node: string;
  loadBefore: number[];
  loadAfter?: number[];
  started: Date;
  seconds?: number;
}

/** The machine as it is now (the run's start). */
export function machineNow(): Machine {
  const c = cpus();
  return {
    cores: c.length,
    cpuModel: c[0]?.model.trim() ?? 'unknown',
    memoryGb: totalmem() / 1024 ** 3,
    system: `${process.platform}/${process.arch}`,
    node: process.version,
    loadBefore: loadavg(),
    started: new Date(),
  };
}

const load = (l: number[] | undefined) => (l ? l.map((x) => x.toFixed(2)).join(' / ') : 'not read');
// Table cells hold no pipe and no line break.
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

function valueCell(r: BenchRow): string {
  if (r.none !== undefined) return r.none;
  if (Number.isNaN(r.value)) return 'not measured';
  return `${fmt(r.value)} ${r.unit}`;
}

function table(rows: BenchRow[]): string[] {
  const lines = ['| measurement | value | baseline | ratio | target | met |', '|---|---:|---:|---:|---|---|'];
  for (const r of rows)
    lines.push(
      `| ${cell(r.name)} | ${cell(valueCell(r))} | ${r.baseline === undefined || Number.isNaN(r.baseline) ? '' : `${fmt(r.baseline)} ${r.unit}`} | ${
        r.ratio === undefined ? '' : `${fmt(r.ratio)}×`
      } | ${cell(r.target ?? '')} | ${r.ok === undefined ? '' : r.ok ? 'yes' : '**no**'} |`,
    );
  const notes = rows.filter((r) => r.note);
  if (notes.length) lines.push('', ...notes.map((r) => `- ${cell(r.name)}: ${cell(r.note ?? '')}`));
  return lines;
}

/**
 * The page. `suites` lists every suite with its description; those `ran` did not hold are listed as
 * not measured in this run, with the command that measures them.
 */
export function benchMarkdown(o: {
  machine: Machine;
  rows: SuiteRow[];
  suites: Array<{ name: string; description: string }>;
  ran: string[];
  command: string;
  /** The page as it was: the sections of suites not run now are kept from it, under the run that measured them. */
  previous?: string;
}): string {
  const { machine: m } = o;
  const out = [
    '# Bench figures',
    '',
    `Written by \`${o.command}\`; run it again to bring this page up to date. Every figure is measured side by side`,
    'in one run (a ratio compares two things timed in the same rounds); targets missed are marked, never failed.',
    '',
    '| machine | |',
    '|---|---|',
    `| CPU | ${m.cores} cores, ${cell(m.cpuModel)} |`,
    `| memory | ${m.memoryGb.toFixed(1)} GB |`,
    `| system, node | ${m.system}, node ${m.node} |`,
    `| date | ${m.started.toISOString().slice(0, 16).replace('T', ' ')} UTC${m.seconds === undefined ? '' : `, the run took ${m.seconds.toFixed(0)} s`} |`,
    `| load average (1 / 5 / 15 min) | before ${load(m.loadBefore)}, after ${load(m.loadAfter)} |`,
    '',
    `The load average says how shared the machine was: with more runnable processes than its ${m.cores} cores, times grow while ratios hold better.`,
  ];
  for (const s of o.suites.filter((x) => o.ran.includes(x.name))) {
    out.push('', `## ${s.name}`, '', cell(s.description), '', ...table(o.rows.filter((r) => r.suite === s.name)));
  }
  // Suites not run now keep the figures of the run that wrote them (its command and date say which).
  const kept = o.previous ? earlierSections(o.previous) : new Map<string, string>();
  const missing = o.suites.filter((x) => !o.ran.includes(x.name) && !kept.has(x.name));
  for (const s of o.suites.filter((x) => !o.ran.includes(x.name) && kept.has(x.name))) out.push('', kept.get(s.name)!);
  if (missing.length) {
    out.push('', '## Not measured in this run', '');
    for (const s of missing) out.push(`- \`${s.name}\` — ${cell(s.description)} (\`npm run bench -- ${s.name}\`)`);
  }
  return `${out.join('\n')}\n`;
}

/**
 * The suite sections of an earlier page, by suite name, each headed by the run that measured it
 * (a section kept once already keeps its own heading line).
 */
export function earlierSections(page: string): Map<string, string> {
  const out = new Map<string, string>();
  const written = /^Written by `([^`]*)`/m.exec(page)?.[1] ?? 'an earlier run';
  const date = /^\| date \| ([^|]*) \|/m.exec(page)?.[1]?.trim() ?? '';
  const parts = page.split(/^## /m).slice(1);
  for (const part of parts) {
    const name = part.slice(0, part.indexOf('\n')).trim();
    if (name === 'Not measured in this run') continue;
    const body = part.slice(part.indexOf('\n') + 1).trimEnd();
    const from = body.trimStart().startsWith('_Measured by ') ? body : `_Measured by \`${written}\` (${date}), not in this run._\n\n${body.trimStart()}`;
    out.set(name, `## ${name}\n\n${from.trimStart()}`);
  }
  return out;
}
