// Running the sync command line as a user would (`npm run sync -- …` is `tsx src/cli/sync.ts …`),
// each "device" with its own settings file, and reading what is in a space.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Device {
  name: string;
  config: string;
  folder: string;
  run(args: string[], env?: Record<string, string>): Promise<Run>;
}

/** A temp dir for a test. */
export function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `rho-sync-${label}-`));
}

export function device(base: string, name: string): Device {
  const dir = join(base, name);
  const folder = join(dir, 'sessions');
  mkdirSync(folder, { recursive: true });
  const config = join(dir, 'config', 'sync.json');
  return {
    name,
    config,
    folder,
    run: (args, env = {}) =>
      runCli(['--name', name, ...args].slice(args[0] === 'init' || args[0] === 'pair' ? 0 : 2), { RHO_SESSIONS_CONFIG: config, ...env }, args),
  };
}

function runCli(_unused: string[], env: Record<string, string>, args: string[]): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/sync.ts'), ...args], { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

/** Every file under a directory (relative path → bytes). */
export function filesUnder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full, `${rel}${name}/`);
      else out.set(`${rel}${name}`, readFileSync(full));
    }
  };
  walk(dir, '');
  return out;
}

/** The link and code lines `init`/`link` print. */
export function linkOf(run: Run): { link: string; code: string | null } {
  const link = run.stdout.split('\n').find((l) => l.includes('#pair='));
  if (!link) throw new Error(`no link in: ${run.stdout}${run.stderr}`);
  const code = /code: (\S+)/.exec(run.stdout)?.[1] ?? null;
  return { link: link.trim(), code };
}

/** A long-running command (`watch`), its output lines as they come. */
export interface Running {
  /** Resolves with the first line (from now on) that matches. */
  line(match: RegExp): Promise<string>;
  /** Sends SIGINT and resolves with the exit code. */
  interrupt(): Promise<number>;
}

export function startCli(config: string, args: string[], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/sync.ts'), ...args], {
    cwd: root,
    env: { ...process.env, RHO_SESSIONS_CONFIG: config, ...env },
  });
  const waiting: { match: RegExp; done: (l: string) => void }[] = [];
  let buffered = '';
  child.stdout.on('data', (d) => {
    buffered += d;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const l of lines)
      for (const w of waiting.splice(0))
        if (w.match.test(l)) w.done(l);
        else waiting.push(w);
  });
  const exited = new Promise<number>((done) => child.on('close', (code) => done(code ?? -1)));
  return {
    line: (match) => new Promise((done) => waiting.push({ match, done })),
    interrupt: () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}
