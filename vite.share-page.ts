// The one-file share page (issue 11) is a second, small build: a page script and its own worker,
// built here with vite's API and handed to the app's worker as strings (`virtual:rho-share-page`),
// which inlines them into every exported page. Nothing is written to disk: `npm run build`,
// vitest and the bench all build it on demand from src/share-page/.
import { dirname, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import preact from '@preact/preset-vite';
import { build, type Plugin, type Rollup } from 'vite';
import { toBase85 } from './src/core/share/base85.ts';

/** The module the app's worker imports the share page's assets from. */
export const SHARE_PAGE_MODULE = 'virtual:rho-share-page';

/** What an exported page is made of (the same shape as src/worker/share/page-template.ts's SharePageAssets). */
export interface BuiltSharePage {
  /** The page's one inline script (an IIFE, src/share-page/boot.ts): it unpacks and runs `script`. */
  boot: string;
  /** The page's script (an IIFE), gzip-compressed and base85-encoded (src/core/share/base85.ts). */
  script: string;
  /** The page's styles. */
  css: string;
  /** The page's worker (an IIFE), gzip-compressed and base85-encoded (src/core/share/base85.ts). */
  worker: string;
  /** The same worker with age decryption, for pages with a password. */
  workerEncrypted: string;
}

const root = import.meta.dirname;
const UI_WORKER = resolve(root, 'src/ui/worker.ts');

/** The reader's components import the app's worker connection; in the share page they get the page's own worker. */
function pageWorkerLink(): Plugin {
  return {
    name: 'rho-share-page-worker-link',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !source.endsWith('worker.ts')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === UI_WORKER ? resolve(root, 'src/share-page/link.ts') : null;
    },
  };
}

const CLIENT = resolve(root, 'src/worker/client.ts');
const APP_WORKER_URL = "import workerScript from './main.ts?worker&url';";

/** The page never starts the app's worker: connectWorker's default (which would bundle the whole app worker) is cut out. */
/** A page's envelope index has no blocks appended after it: the worker carries no code to merge them (worker/merge-none.ts). */
function noAppendedIndex(): Plugin {
  const merge = resolve(root, 'src/core/envelope/envelope-merge.ts');
  const none = resolve(root, 'src/share-page/worker/merge-none.ts');
  return {
    name: 'rho-share-page-no-appended-index',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer || !source.endsWith('envelope-merge.ts')) return null;
      return resolve(dirname(importer), source) === merge ? none : null;
    },
  };
}

function noAppWorker(): Plugin {
  return {
    name: 'rho-share-page-no-app-worker',
    enforce: 'pre',
    transform(code, id) {
      if (id !== CLIENT) return null;
      if (!code.includes(APP_WORKER_URL)) throw new Error(`src/worker/client.ts changed: the share page build expects ${APP_WORKER_URL} there.`);
      // The page hands connectWorker its own worker; the app worker's URL is never used there.
      return code.replace(APP_WORKER_URL, "const workerScript = 'about:blank#no-app-worker-in-the-share-page';");
    },
  };
}

/**
 * Modules whose top level only defines things: the core's zod schemas (reached through parse.ts,
 * but the page never validates entries with them) and zod itself. Marked so, rollup leaves them out
 * when nothing the page runs uses them (a quarter of the worker's size).
 */
const SIDE_EFFECT_FREE = /\/node_modules\/zod\/|\/src\/core\/schema\/(message-)?schemas\.ts$/;

async function bundle(entry: string, plugins: Plugin[]): Promise<Rollup.OutputBundle[keyof Rollup.OutputBundle][]> {
  const out = await build({
    configFile: false,
    root,
    // 'error': the preload helper's import.meta (unused: everything is one file) warns in IIFE output.
    logLevel: 'error',
    plugins,
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      target: 'es2022',
      // PROFILE_SHARE_UNMINIFIED=1 (test/bench/profile-share.ts): readable names in a profile.
      minify: !process.env.PROFILE_SHARE_UNMINIFIED,
      cssCodeSplit: false,
      modulePreload: false,
      reportCompressedSize: false,
      assetsInlineLimit: Number.MAX_SAFE_INTEGER,
      rollupOptions: {
        input: resolve(root, entry),
        treeshake: { moduleSideEffects: (id) => !SIDE_EFFECT_FREE.test(id) },
        output: { format: 'iife', entryFileNames: '[name].js', assetFileNames: '[name][extname]' },
      },
    },
  });
  const outputs = Array.isArray(out) ? out : [out];
  const items = outputs.flatMap((o) => ('output' in o ? o.output : []));
  // SHARE_PAGE_MODULES=n: the n largest modules of each bundle, to see what a page carries.
  if (process.env.SHARE_PAGE_MODULES)
    for (const o of items)
      if (o.type === 'chunk')
        console.log(
          `${entry}:\n${Object.entries(o.modules)
            .map(([id, m]) => [m.renderedLength, id.replace(root, '')] as const)
            .sort((a, b) => b[0] - a[0])
            .slice(0, Number(process.env.SHARE_PAGE_MODULES))
            .map(([n, id]) => `  ${n} ${id}`)
            .join('\n')}`,
        );
  return items;
}

/** Text that can sit inside a <script> element: nothing in it may close the element or open an HTML comment. */
function checkInlinable(name: string, text: string): string {
  // `<!--` appears only in string literals in what we bundle (DOMPurify's "<!---->"): \x3C is the same text there.
  const safe = text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '\\x3C!--');
  if (/<!--/.test(safe)) throw new Error(`${name} contains "<!--", which cannot be inlined in a <script> element.`);
  return safe;
}

/**
 * The script with every character past ASCII written as a \\u escape (they are all in string and
 * template literals, where the escape is the same text). An all-ASCII page is decoded by the
 * browser several times faster: one non-ASCII character makes Chromium widen the whole 10 MB
 * document to UTF-16 (a 150 ms main-thread task for a 56 MB session's page, 35 ms once ASCII).
 */
function asciiScript(name: string, code: string): string {
  // A tagged template would see the escape in its raw strings.
  if (/String\.raw|\.raw\b/.test(code) && /[^\x00-\x7f]/.test(code)) throw new Error(`${name} has raw template strings and non-ASCII text.`);
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The styles with every character past ASCII as a CSS escape (six hex digits: nothing after it is swallowed). */
function asciiCss(css: string): string {
  return css.replace(/[^\x00-\x7f]/gu, (c) => `\\${(c.codePointAt(0) as number).toString(16).padStart(6, '0')}`);
}

/**
 * The three bundles, built for production whatever the process ran before: vite takes its mode from
 * process.env.NODE_ENV once it is set (a dev server started earlier in the same process sets it to
 * 'development', vitest to 'test'), and the preact preset then emits its development JSX and devtools
 * (a fifth more script: a bench that started a dev server first measured a larger page).
 */
async function bundleAll() {
  const env = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await Promise.all([
      bundle('src/share-page/main.tsx', [pageWorkerLink(), noAppWorker(), ...preact()]),
      bundle('src/share-page/boot.ts', []),
      bundle('src/share-page/worker/plain.ts', [noAppendedIndex()]),
      bundle('src/share-page/worker/encrypted.ts', [noAppendedIndex()]),
    ]);
  } finally {
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
  }
}

/** Builds the share page's script, styles and worker. */
export async function buildSharePageAssets(): Promise<BuiltSharePage> {
  const [page, boot, worker, workerEncrypted] = await bundleAll();
  const text = (items: typeof page, test: (name: string) => boolean) =>
    items
      .filter((o) => test(o.fileName))
      .map((o) => (o.type === 'chunk' ? o.code : typeof o.source === 'string' ? o.source : new TextDecoder().decode(o.source)))
      .join('\n');
  const js = (items: typeof page) => text(items, (n) => n.endsWith('.js'));
  const packed = (code: string) => toBase85(gzipSync(code, { level: 9 }));
  const css = asciiCss(text(page, (n) => n.endsWith('.css'))).replace(/<\/(style)/gi, '<\\/$1');
  return {
    boot: checkInlinable('The share page boot script', asciiScript('The share page boot script', js(boot))),
    script: packed(asciiScript('The share page script', js(page))),
    css,
    worker: packed(js(worker)),
    workerEncrypted: packed(js(workerEncrypted)),
  };
}

let built: Promise<BuiltSharePage> | null = null;

/** Serves `virtual:rho-share-page` (built once per process) to the app and its worker. */
export function sharePagePlugin(): Plugin {
  const resolvedId = `\0${SHARE_PAGE_MODULE}`;
  return {
    name: 'rho-share-page',
    resolveId: (id) => (id === SHARE_PAGE_MODULE ? resolvedId : null),
    async load(id) {
      if (id !== resolvedId) return null;
      built ??= buildSharePageAssets();
      return `export default ${JSON.stringify(await built)};`;
    },
  };
}
