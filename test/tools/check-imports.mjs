// The architecture's import rules (../shared/ARCHITECTURE.md, "Folders and what each may import"),
// checked on every import and export-from in src/. Each refusal says which rule and why.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const src = join(root, 'src');

/** folder → { allowed folders, allowed packages, why } */
const rules = {
  core: { folders: ['core'], packages: ['zod'], why: 'the core is pure and runs in Node, the worker and the page: only zod and itself, no DOM, no I/O' },
  storage: {
    folders: ['core', 'storage'],
    packages: ['idb-keyval'],
    why: 'storage keeps bytes for the worker: it may use the core and idb-keyval, never the UI or the worker',
  },
  worker: {
    folders: ['core', 'storage', 'worker'],
    packages: [
      'fflate',
      'fzstd',
      'idb-keyval',
      'markdown-it',
      'highlight.js',
      '@secretlint/core',
      '@secretlint/secretlint-rule-preset-recommend',
      'age-encryption',
      'virtual:rho-share-page',
      'minisearch',
      '@mariozechner/pi-ai',
    ],
    why: 'the worker owns parsing and storage; it never reaches into the UI',
  },
  ui: {
    folders: ['core', 'ui', 'worker'],
    packages: ['preact', '@preact/signals', 'idb-keyval', 'markdown-it', 'highlight.js', 'workbox-window', 'dompurify'],
    why: 'the page reaches storage only through the worker client',
  },
  'share-page': {
    folders: ['core', 'ui', 'worker', 'share-page'],
    packages: ['preact', '@preact/signals', 'age-encryption'],
    why: 'the one-file share page is the reader and its own worker: the core, the reader UI, the worker API over its one session',
  },
  sw: {
    folders: ['sw'],
    packages: ['workbox-precaching', 'workbox-routing', 'workbox-core', 'workbox-strategies', 'workbox-expiration', 'idb-keyval'],
    why: 'the service worker is small and boring: workbox only',
  },
};

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

const importRe =
  /(?:^|[\n;])\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|new\s+URL\(\s*['"]([^'"]+)['"]/g;
const problems = [];
for (const file of files(src)) {
  const rel = relative(src, file);
  const folder = rel.split(sep)[0];
  if (rel === 'main.tsx') continue; // the page entry: wires ui together
  const rule = rules[folder];
  if (!rule) continue;
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(importRe)) {
    const typeOnly = Boolean(m[1]);
    const spec = m[2] ?? m[3] ?? m[4];
    const line = text.slice(0, m.index).split('\n').length + (text[m.index] === '\n' ? 1 : 0);
    const where = `src/${rel}:${line}`;
    if (spec.startsWith('.')) {
      const target = relative(src, resolve(dirname(file), spec));
      if (target.startsWith('..')) {
        if (folder === 'ui' && target.startsWith(`..${sep}fixtures`)) continue; // bundled samples
        problems.push(`${where}: imports ${spec}, outside src/ — ${rule.why}`);
        continue;
      }
      const targetFolder = target.split(sep)[0];
      if (!rule.folders.includes(targetFolder)) problems.push(`${where}: src/${folder} may not import src/${targetFolder} (${spec}) — ${rule.why}`);
      // The page may only reach the worker through its client (and types of its API).
      if (folder === 'ui' && targetFolder === 'worker' && !/client(\.ts)?$|protocol(\.ts)?$/.test(spec) && !typeOnly)
        problems.push(`${where}: the page must reach the worker through src/worker/client.ts, not ${spec}`);
    } else {
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (spec.startsWith('node:')) problems.push(`${where}: ${spec} — ${rule.why}`);
      else if (!rule.packages.includes(pkg) && !(typeOnly && pkg === 'ai'))
        problems.push(`${where}: src/${folder} may not import the package '${pkg}' — ${rule.why}`);
    }
  }
  if (folder === 'ui' && /new\s+Worker\s*\(/.test(text)) problems.push(`src/${rel}: creates a Worker — only src/worker/client.ts starts the worker`);
  if (folder === 'ui' && /navigator\.storage\.getDirectory/.test(text)) problems.push(`src/${rel}: opens OPFS — the page never touches OPFS; ask the worker`);
}
if (problems.length) {
  console.error(`✗ import rules: ${problems.length} violation(s)\n` + problems.map((p) => '  ' + p).join('\n'));
  process.exit(1);
}
console.log('✓ import rules');
