// The import checker (check-imports.mjs) on folders made for the test: it names a cycle file by
// file, counts type-only imports, and refuses a clock in the core; on src/ it finds nothing.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, expect, test } from 'vitest';

const checker = new URL('./check-imports.mjs', import.meta.url).pathname;
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A src folder holding `files` (path → text), checked: its exit status and what it printed. */
function check(files: Record<string, string>) {
  const src = mkdtempSync(join(tmpdir(), 'check-imports-'));
  made.push(src);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(src, path)), { recursive: true });
    writeFileSync(join(src, path), text);
  }
  const run = spawnSync(process.execPath, [checker, '--src', src], { encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

test('two files that import each other are refused, the cycle named file by file', () => {
  const { status, out } = check({
    'core/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
    'core/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
  });
  expect(status).toBe(1);
  expect(out).toContain('import cycle: src/core/a.ts → src/core/b.ts → src/core/a.ts');
});

test('a cycle through a type-only import and across folders is named in import order', () => {
  const { status, out } = check({
    'worker/api.ts': "import { run } from './search/run.ts';\nexport const api = { run };\n",
    'worker/search/run.ts': "import { limit } from './limit.ts';\nexport const run = () => limit;\n",
    'worker/search/limit.ts': "import type { api } from '../api.ts';\nexport type Api = typeof api;\nexport const limit = 3;\n",
  });
  expect(status).toBe(1);
  expect(out).toContain('import cycle: src/worker/api.ts → src/worker/search/run.ts → src/worker/search/limit.ts → src/worker/api.ts');
});

test('files that import in one direction only pass', () => {
  const { status, out } = check({
    'core/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
    'core/b.ts': 'export const b = 1;\n',
  });
  expect(out).toContain('✓ import rules');
  expect(status).toBe(0);
});

test('the core may not read a clock or randomness of its own', () => {
  const { status, out } = check({ 'core/id.ts': 'export const id = () => Math.random().toString(36);\n' });
  expect(status).toBe(1);
  expect(out).toContain('src/core/id.ts: reads a clock or randomness');
});

test('src/ has no import cycle and keeps every import rule', () => {
  const run = spawnSync(process.execPath, [checker], { encoding: 'utf8' });
  expect(run.stdout + run.stderr).toContain('✓ import rules');
  expect(run.status).toBe(0);
});
