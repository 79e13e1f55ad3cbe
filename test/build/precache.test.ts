import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const dist = join(root, 'dist');

/** The precache manifest workbox injected into dist/sw.js: every {url, revision} entry. */
function precacheUrls(): string[] {
  const sw = readFileSync(join(dist, 'sw.js'), 'utf8');
  return [...sw.matchAll(/"url":\s*"([^"]+)"/g)].map((m) => m[1]);
}

describe('the built precache list', () => {
  beforeAll(() => {
    if (!existsSync(join(dist, 'sw.js'))) execFileSync('npx', ['vite', 'build'], { cwd: root, stdio: 'ignore' });
  });

  test('holds index.html, every JS and CSS file but pi-ai’s and the providers’, the manifest and the icons, but not the service worker', () => {
    const urls = precacheUrls();
    expect(urls).toContain('index.html');
    expect(urls).toContain('manifest.webmanifest');
    const assets = readdirSync(join(dist, 'assets')).filter((f) => /\.(js|css)$/.test(f));
    expect(assets.length).toBeGreaterThan(1);
    // pi-ai and the provider SDKs are cached by the service worker when first used (vite.config.ts chunkFileName).
    const model = assets.filter((a) => a.startsWith('ai-'));
    expect(model.some((a) => /^ai-anthropic-/.test(a))).toBe(true);
    for (const asset of assets) {
      if (model.includes(asset)) expect(urls).not.toContain(`assets/${asset}`);
      else expect(urls).toContain(`assets/${asset}`);
    }
    for (const icon of ['icons/icon-192.png', 'icons/icon-512.png', 'icons/maskable-512.png']) expect(urls).toContain(icon);
    expect(urls.some((u) => /(^|\/)sw\.js$/.test(u))).toBe(false);
    expect(new Set(urls).size).toBe(urls.length);
  });

  test('holds the bundled sample session so it opens offline', () => {
    expect(precacheUrls().some((u) => /^assets\/welcome-.*\.jsonl$/.test(u))).toBe(true);
  });
});
