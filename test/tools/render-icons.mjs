// Renders public/icons/*.svg to the PNG sizes the manifest names. Run from public/icons: node ../../test/tools/render-icons.mjs
import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const p = await b.newPage();
const fs = await import('node:fs');
for (const [src, out, size] of [
  ['icon.svg', 'icon-192.png', 192],
  ['icon.svg', 'icon-512.png', 512],
  ['maskable.svg', 'maskable-512.png', 512],
  ['icon.svg', 'apple-touch-icon.png', 180],
]) {
  await p.setViewportSize({ width: size, height: size });
  const svg = fs.readFileSync(src, 'utf8');
  await p.setContent(
    `<style>html,body{margin:0;background:transparent}</style><img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" width=${size} height=${size}>`,
  );
  await p.screenshot({ path: out, omitBackground: true });
}
await b.close();
