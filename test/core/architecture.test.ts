import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = new URL('../../src/core/', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

test('src/core imports only zod and itself (ARCHITECTURE.md: pure, DOM-free, no node:)', () => {
  const bad: string[] = [];
  for (const file of files(root)) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g)) {
      const spec = match[1] ?? match[2];
      if (spec === 'zod' || spec.startsWith('zod/') || spec.startsWith('./') || spec.startsWith('../')) {
        if (spec.startsWith('../') && !join(file, '..', spec).startsWith(root)) bad.push(`${file}: ${spec}`);
        continue;
      }
      bad.push(`${file}: ${spec}`);
    }
  }
  expect(bad).toEqual([]);
});

test('src/core uses no clock or randomness of its own', () => {
  const bad = files(root).filter((f) => /Date\.now\(|new Date\(\)|Math\.random\(|crypto\./.test(readFileSync(f, 'utf8')));
  expect(bad).toEqual([]);
});
