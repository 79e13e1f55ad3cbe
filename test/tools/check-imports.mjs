// The architecture's import rules (docs/architecture.md, "Layers and what each may import"),
// checked on every import and export-from in src/, and no import cycle among its files (type-only
// imports count: a cycle of types is still two files that cannot be read one before the other).
// Each refusal says which rule and why; a cycle is named file → file → … → file.
// `node test/tools/check-imports.mjs [--src DIR]`: DIR instead of src/ (the checker's own test).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const at = process.argv.indexOf('--src');
const src = at > 0 ? resolve(process.argv[at + 1]) : join(root, 'src');

/** folder → { allowed folders, allowed packages, why } */
const rules = {
  core: { folders: ['core'], packages: ['zod'], why: 'the core is pure and runs in Node, the worker and the page: only zod and itself, no DOM, no I/O' },
  storage: {
    folders: ['core', 'storage'],
    packages: ['idb-keyval'],
    why: 'storage keeps bytes for the worker: it may use the core and idb-keyval, never the UI or the worker',
  },
  worker: {
    folders: ['core', 'storage', 'sync', 'worker'],
    packages: [
      'aws4fetch',
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
    packages: ['preact', '@preact/signals', 'idb-keyval', 'markdown-it', 'highlight.js', 'workbox-window', 'dompurify', 'qr'],
    why: 'the page reaches storage only through the worker client',
  },
  'share-page': {
    folders: ['core', 'ui', 'worker', 'share-page'],
    packages: ['preact', '@preact/signals', 'age-encryption'],
    why: 'the one-file share page is the reader and its own worker: the core, the reader UI, the worker API over its one session',
  },
  sync: {
    folders: ['core', 'storage', 'sync'],
    packages: ['age-encryption', 'aws4fetch'],
    why: 'sync runs in the worker and in Node: the core (through src/core/index.ts), storage types, fetch, WebCrypto, age and aws4fetch',
  },
  cli: {
    folders: ['core', 'storage', 'sync', 'cli'],
    packages: ['age-encryption'],
    why: 'the command line is the sync room over Node: node: modules, the core and sync',
  },
  sw: {
    folders: ['sw', 'storage'],
    packages: ['workbox-precaching', 'workbox-routing', 'workbox-core', 'workbox-strategies', 'workbox-expiration', 'idb-keyval'],
    why: 'the service worker is small and boring: workbox, and the origins the worker lets it allow (storage/connect-origins.ts)',
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
/** file (relative to src, '/'-separated) → the files it imports. */
const graph = new Map();
const posix = (p) => p.split(sep).join('/');
for (const file of files(src)) {
  const edges = new Set();
  graph.set(posix(relative(src, file)), edges);
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
      const target = relative(src, resolve(dirname(file), spec.split('?')[0]));
      if (/\.(ts|tsx)$/.test(target) && existsSync(join(src, target))) edges.add(posix(target));
      if (target.startsWith('..')) {
        if (folder === 'ui' && target.startsWith(`..${sep}fixtures`)) continue; // bundled samples
        problems.push(`${where}: imports ${spec}, outside src/ — ${rule.why}`);
        continue;
      }
      const targetFolder = target.split(sep)[0];
      if (folder === 'sync' && targetFolder === 'core' && target !== join('core', 'index.ts'))
        problems.push(`${where}: src/sync imports the core only through src/core/index.ts (${spec})`);
      if (folder === 'sync' && targetFolder === 'storage' && !typeOnly) problems.push(`${where}: src/sync imports only storage's types (${spec})`);
      if (!rule.folders.includes(targetFolder)) problems.push(`${where}: src/${folder} may not import src/${targetFolder} (${spec}) — ${rule.why}`);
      // The page may only reach the worker through its client (and types of its API).
      if (folder === 'ui' && targetFolder === 'worker' && !/client(\.ts)?$|protocol(\.ts)?$/.test(spec) && !typeOnly)
        problems.push(`${where}: the page must reach the worker through src/worker/client.ts, not ${spec}`);
    } else {
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (spec.startsWith('node:') && folder !== 'cli') problems.push(`${where}: ${spec} — ${rule.why}`);
      else if (spec.startsWith('node:')) continue;
      else if (!rule.packages.includes(pkg) && !(typeOnly && pkg === 'ai'))
        problems.push(`${where}: src/${folder} may not import the package '${pkg}' — ${rule.why}`);
    }
  }
  if (folder === 'ui' && /new\s+Worker\s*\(/.test(text)) problems.push(`src/${rel}: creates a Worker — only src/worker/client.ts starts the worker`);
  if (folder === 'core' && /Date\.now\(|new Date\(\)|Math\.random\(|crypto\./.test(text))
    problems.push(`src/${rel}: reads a clock or randomness — the core takes \`now\` and \`randomId\` from its caller, so it stays deterministic`);
  if (folder === 'ui' && /navigator\.storage\.getDirectory/.test(text)) problems.push(`src/${rel}: opens OPFS — the page never touches OPFS; ask the worker`);
}
for (const { group, cycle } of cycles(graph)) {
  const more = group.length > cycle.length ? ` (and other cycles among ${group.length} files: ${group.join(', ')})` : '';
  problems.push(`import cycle: ${[...cycle, cycle[0]].map((f) => `src/${f}`).join(' → ')}${more}`);
}

/**
 * One cycle per strongly connected group of files (Tarjan), the shortest through its first file:
 * breaking it may leave another in the same group, which the next run names.
 */
function cycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || graph.get(v).has(v)) groups.push(group.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups.map((group) => {
    // Breadth-first from the group's first file back to itself, inside the group.
    const inGroup = new Set(group);
    const start = group[0];
    const from = new Map();
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      const v = queue[i];
      for (const w of [...graph.get(v)].sort()) {
        if (!inGroup.has(w)) continue;
        if (w === start) {
          const path = [v];
          while (path[0] !== start) path.unshift(from.get(path[0]));
          return { group, cycle: path };
        }
        if (!from.has(w)) {
          from.set(w, v);
          queue.push(w);
        }
      }
    }
    return { group, cycle: group };
  });
}

if (problems.length) {
  console.error(`✗ import rules: ${problems.length} violation(s)\n` + problems.map((p) => '  ' + p).join('\n'));
  process.exit(1);
}
console.log('✓ import rules');
