/**
 * `npm run fixtures` — writes the committed small fixtures (deterministic: running it again gives
 * the same bytes) and, on request, big generated sessions for tests and benchmarks.
 *
 *   npm run fixtures                      small fixtures into fixtures/{synthetic,omp,pi}/
 *   npm run fixtures -- --sizes 10,100    also fixtures/generated/synthetic-pi-10mb-s1.jsonl, …-100mb-…
 *   npm run fixtures -- --sizes 1 --flavor omp --seed 7 --only-generated
 *
 * Sizes are in MB (10^6 bytes); a generated file is at least that big (it stops after the turn
 * that crosses the size). Files that already exist are kept (delete them to regenerate).
 */
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codexBareRollout, codexRollout } from './codex-rollout.ts';
import { edgeCaseFiles } from './edge-cases.ts';
import { ompExecutionsFile } from './omp-executions.ts';
import { ompShapeFiles } from './omp-shapes.ts';
import { type Flavor, generateSessionLines, generateSessionText } from './session.ts';

/** Repository root (two levels above this file). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Where big generated fixtures go (git-ignored). */
export const GENERATED_DIR = join(ROOT, 'fixtures/generated');

/** Path of a generated fixture; generates it first when missing. */
export function ensureGenerated(sizeMb: number, opts: { flavor?: Flavor; seed?: number } = {}): string {
  const flavor = opts.flavor ?? 'pi';
  const seed = opts.seed ?? 1;
  const file = join(GENERATED_DIR, `synthetic-${flavor}-${sizeMb}mb-s${seed}.jsonl`);
  if (existsSync(file)) return file;
  mkdirSync(GENERATED_DIR, { recursive: true });
  const tmp = file + '.tmp';
  const fd = openSync(tmp, 'w');
  try {
    let batch: string[] = [];
    let batchBytes = 0;
    for (const line of generateSessionLines({ seed, targetBytes: Math.round(sizeMb * 1e6), flavor })) {
      batch.push(line);
      batchBytes += line.length;
      if (batchBytes > 4e6) {
        writeSync(fd, batch.join('\n') + '\n');
        batch = [];
        batchBytes = 0;
      }
    }
    if (batch.length > 0) writeSync(fd, batch.join('\n') + '\n');
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  return file;
}

/** The small committed fixtures: relative path → text. `pi` ones need pi's SessionManager. */
export async function smallFixtures(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(edgeCaseFiles())) out[`fixtures/synthetic/${name}.jsonl`] = text;
  out['fixtures/synthetic/pi-1mb.jsonl'] = generateSessionText({ seed: 11, targetBytes: 1e6, flavor: 'pi', imageBytes: [256, 12000] });
  out['fixtures/synthetic/rho-300kb.jsonl'] = generateSessionText({
    seed: 12,
    targetBytes: 3e5,
    flavor: 'rho',
    imageBytes: [128, 4000],
    compactionEvery: 60000,
    branchRate: 0.15,
    abortRate: 0.12,
  });
  out['fixtures/synthetic/pi-branchy-200kb.jsonl'] = generateSessionText({
    seed: 13,
    targetBytes: 2e5,
    flavor: 'pi',
    imageBytes: [64, 2000],
    compactionEvery: 40000,
    branchRate: 0.3,
    abortRate: 0.2,
  });
  out['fixtures/omp/omp-generated-400kb.jsonl'] = generateSessionText({
    seed: 14,
    targetBytes: 4e5,
    flavor: 'omp',
    imageBytes: [200, 6000],
    compactionEvery: 80000,
    branchRate: 0.1,
    abortRate: 0.15,
  });
  for (const [name, text] of Object.entries(ompShapeFiles())) out[`fixtures/omp/${name}.jsonl`] = text;
  out['fixtures/omp/omp-executions.jsonl'] = ompExecutionsFile();
  out['fixtures/other-agents/codex/generated-every-item.jsonl'] = codexRollout({ turns: 6 });
  out['fixtures/other-agents/codex/generated-bare-era.jsonl'] = codexBareRollout();
  const { piFixtureFiles } = await import('./pi-fixtures.ts');
  for (const [name, text] of Object.entries(piFixtureFiles())) out[`fixtures/pi/${name}.jsonl`] = text;
  return out;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  if (!process.argv.includes('--only-generated')) {
    const files = await smallFixtures();
    for (const [rel, text] of Object.entries(files)) {
      const file = join(ROOT, rel);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    console.log(`wrote ${Object.keys(files).length} small fixtures`);
  }
  const sizes = arg('--sizes');
  if (sizes) {
    for (const s of sizes.split(',').map(Number)) {
      const t0 = performance.now();
      const file = ensureGenerated(s, { flavor: (arg('--flavor') as Flavor | undefined) ?? 'pi', seed: Number(arg('--seed') ?? 1) });
      console.log(`${file} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
