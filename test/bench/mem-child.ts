/**
 * Child process of `measureMemory` (harness.ts): `node --expose-gc --import tsx mem-child.ts TASK FILE`.
 * Loads the code a task needs, runs it once on a small session (WARM_UP: its code is compiled and
 * V8's young generation has grown, costs that do not grow with the file — they alone made plain
 * JSON.parse of a 10 MB file read as 4.8× the file), collects garbage, records the baseline RSS,
 * runs the task once on the file's bytes (reading the file is part of the task), keeps the result alive, and prints
 * `{baselineRss, peakRss, maxRss, heapUsed, external, ms}` as one JSON line. `peakRss` is the
 * process's maximum resident set size (getrusage maxRSS) minus the baseline.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
// The chunk the app's worker parses a stored file in, so the bench reads as the app does.
import { PARSE_CHUNK } from '../../src/worker/reader/parse-blob.ts';

type Task = (file: string) => unknown;

async function loadTask(name: string): Promise<Task> {
  const core = await import('../../src/core/index.ts');
  const bytesOf = (file: string) => {
    const b = readFileSync(file);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  };
  switch (name) {
    case 'read':
      return (file) => bytesOf(file);
    case 'json':
      return (file) =>
        new TextDecoder()
          .decode(bytesOf(file))
          .split('\n')
          .filter((l) => l.length > 0)
          .map((l) => JSON.parse(l));
    case 'core-parse':
      return (file) => core.parse(bytesOf(file));
    case 'core-open':
      // As the app opens a stored session: read a chunk at a time into one buffer and parsed as it comes.
      return (file) => {
        const parser = core.sessionParser();
        const buffer = new Uint8Array(PARSE_CHUNK);
        const fd = openSync(file, 'r');
        try {
          for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) parser.push(buffer.subarray(0, n));
        } finally {
          closeSync(fd);
        }
        const s = parser.finish();
        return [s, core.context(core.branch(s))];
      };
    case 'core-open-whole':
      return (file) => {
        const s = core.parse(bytesOf(file));
        return [s, core.context(core.branch(s))];
      };
    case 'core-last-screen': {
      const { lastScreen } = await import('./last-screen.ts');
      return (file) => lastScreen(core, bytesOf(file));
    }
    case 'core-last-screen-full': {
      const { lastScreenFull } = await import('./last-screen.ts');
      return (file) => lastScreenFull(core, bytesOf(file));
    }
    case 'pi-open': {
      const pi = await import('@mariozechner/pi-coding-agent');
      return (file) => {
        const entries = pi.parseSessionEntries(new TextDecoder().decode(bytesOf(file)));
        const ctx = pi.buildSessionContext(entries.filter((e) => e.type !== 'session') as never);
        return [entries, pi.convertToLlm(ctx.messages)];
      };
    }
    default:
      throw new Error(`unknown task ${name}`);
  }
}

/** A small real session (170 KB) every task runs on once before the baseline. */
const WARM_UP = new URL('../../fixtures/pi/pi-random-303.jsonl', import.meta.url).pathname;

const [task, file] = process.argv.slice(2);
const run = await loadTask(task);
const gc = (globalThis as { gc?: () => void }).gc;
run(WARM_UP);
gc?.();
gc?.();
const baselineRss = process.memoryUsage().rss;
const t0 = performance.now();
const keep = run(file);
const ms = performance.now() - t0;
const maxRss = process.resourceUsage().maxRSS * 1024;
const mem = process.memoryUsage();
(globalThis as { keep?: unknown }).keep = keep;
process.stdout.write(JSON.stringify({ baselineRss, peakRss: maxRss - baselineRss, maxRss, heapUsed: mem.heapUsed, external: mem.external, ms }) + '\n');
