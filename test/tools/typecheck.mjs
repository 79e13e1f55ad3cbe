// Type-checks each environment with its own tsconfig, so DOM code cannot creep into the core or
// the workers (see docs/architecture.md), then checks the import rules.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// tsc itself, not through npx: npx costs a Node start and a package lookup (about half a CPU-second) per project.
const tsc = 'node_modules/.bin/tsc';
const projects = ['src/core', 'src/storage', 'src/sync', 'src/cli', 'src/worker', 'src/sw', 'src/ui', 'src/share-page', 'src/share-page/worker', 'test'];
let failed = 0;
for (const project of projects) {
  if (!existsSync(`${project}/tsconfig.json`)) continue;
  const run = spawnSync(tsc, ['-p', project], { stdio: 'inherit' });
  if (run.status !== 0) {
    failed++;
    console.error(`✗ type errors in ${project}`);
  } else console.log(`✓ types: ${project}`);
}
const imports = spawnSync(process.execPath, ['test/tools/check-imports.mjs'], { stdio: 'inherit' });
if (imports.status !== 0) failed++;
process.exit(failed ? 1 : 0);
