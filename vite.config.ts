import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import preact from '@preact/preset-vite';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { sharePagePlugin } from './vite.share-page.ts';
import { availableParallelism } from 'node:os';

/**
 * The Content-Security-Policy of the built app. Session files come from other devices, so nothing
 * in them may run script: no inline scripts, no eval, images only from ourselves, blob: and data:.
 * Only added to the production build (vite's dev server injects inline scripts).
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  // Every HTML and script-URL sink needs a value from the one policy (src/ui/trusted-types.ts).
  "require-trusted-types-for 'script'",
  'trusted-types rho',
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'rho-csp',
    apply: 'build',
    transformIndexHtml: (html) => html.replace('<head>', `<head>\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`),
  };
}

/**
 * pi-ai and the provider SDKs it loads: the worker imports them only when a model is listed or
 * called, so their chunks (named `ai-…`) are cached by the service worker on first use (src/sw/sw.ts)
 * instead of being precached with the app: the first load does not grow with them.
 */
const MODEL_CODE = /[\\/]node_modules[\\/](@mariozechner[\\/]pi-ai|@anthropic-ai|openai|@mistralai|@google[\\/]genai|@aws-sdk|@smithy|@opentelemetry)[\\/]/;

/** `assets/ai-[name]-[hash].js` for a chunk made only of pi-ai and provider code, else vite's usual name. */
export function chunkFileName(chunk: { moduleIds: readonly string[] }): string {
  const ids = chunk.moduleIds.filter((id) => !id.startsWith('\0'));
  const model = ids.length > 0 && ids.every((id) => /[\\/]node_modules[\\/]/.test(id)) && ids.some((id) => MODEL_CODE.test(id));
  return model ? 'assets/ai-[name]-[hash].js' : 'assets/[name]-[hash].js';
}

const manifest: Partial<ManifestOptions> = {
  name: 'Rho Sessions',
  short_name: 'Rho Sessions',
  description: 'Carry pi and omp coding-agent sessions between devices and read them anywhere, offline.',
  id: '/',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  background_color: '#f4f1ea',
  theme_color: '#1d2b3a',
  icons: [
    { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: 'icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
  // Android: sessions shared from another app arrive as a POST the service worker handles.
  share_target: {
    action: '/share-target',
    method: 'POST',
    enctype: 'multipart/form-data',
    params: {
      title: 'title',
      text: 'text',
      files: [
        {
          name: 'files',
          accept: ['.jsonl', '.txt', '.gz', '.zip', '.age', 'application/json', 'application/x-ndjson', 'text/plain', 'application/gzip', 'application/zip'],
        },
      ],
    },
  },
  // Desktop: "Open with Rho Sessions" for session files.
  file_handlers: [
    {
      action: '/',
      accept: {
        'application/x-ndjson': ['.jsonl'],
        'application/gzip': ['.gz'],
        'application/zip': ['.zip'],
        // Password-protected copies (age has no registered type).
        'application/x-age-encryption': ['.age'],
      },
    },
  ],
  launch_handler: { client_mode: 'focus-existing' },
  // What the install dialog shows (made by `npm run screenshots`).
  screenshots: [
    { src: 'screenshots/laptop-library.png', sizes: '1280x800', type: 'image/png', form_factor: 'wide', label: 'The library' },
    { src: 'screenshots/laptop-reader.png', sizes: '1280x800', type: 'image/png', form_factor: 'wide', label: 'Reading a session' },
    { src: 'screenshots/phone-library.png', sizes: '780x1688', type: 'image/png', form_factor: 'narrow', label: 'The library' },
    { src: 'screenshots/phone-reader.png', sizes: '780x1688', type: 'image/png', form_factor: 'narrow', label: 'Reading a session' },
    {
      src: 'screenshots/phone-composer.png',
      sizes: '780x1688',
      type: 'image/png',
      form_factor: 'narrow',
      label: 'Continuing a session with your own model key',
    },
  ],
};

export default defineConfig({
  plugins: [
    preact(),
    contentSecurityPolicy(),
    sharePagePlugin(),
    // The PWA plugin is left out of unit tests (it only matters for the build).
    ...(process.env.VITEST
      ? []
      : [
          VitePWA({
            strategies: 'injectManifest',
            srcDir: 'src/sw',
            filename: 'sw.ts',
            // We register the service worker ourselves (src/ui/sw-bridge.ts) so updates wait for the user.
            injectRegister: false,
            manifest,
            includeAssets: ['icons/apple-touch-icon.png', 'icons/icon.svg'],
            injectManifest: {
              globPatterns: ['**/*.{js,css,html,jsonl,woff2}'],
              // Cached on first use instead (see chunkFileName).
              globIgnores: ['**/assets/ai-*.js'],
              maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
            },
            devOptions: { enabled: false },
          }),
        ]),
  ],
  // The worker builds the one-file share page (src/worker/share/), so it needs the page's assets.
  worker: { format: 'es', plugins: () => [sharePagePlugin()], rolldownOptions: { output: { chunkFileNames: chunkFileName } } },
  build: { target: 'es2022', sourcemap: true },
  preview: { port: 4173, strictPort: true },
  test: {
    include: ['test/{core,storage,worker,build,ui,tools,sync}/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    setupFiles: ['test/fast-check-seed.ts'],
    // Test files share each worker's modules instead of loading them again per file (module loading
    // was a third of the suite's time): a test file must not leave global state behind it.
    isolate: false,
    // Vitest runs cores − 1 files at once: one on a 2-core machine. The files are CPU-bound and
    // independent, so both cores take them.
    maxWorkers: Number(process.env.VITEST_WORKERS ?? Math.max(2, availableParallelism() - 1)),
  },
});
