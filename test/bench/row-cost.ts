/**
 * A diagnostic: what one transcript row's style and layout cost, by the row's kind, in the open
 * reader (each drawn row taken out of layout with `display: none`, then put back and laid out,
 * timed; median of ROUNDS), and the same with each CSS of EXTRA (`;;`-separated rules) added, to
 * see which part of a row costs.
 *
 *   npx vite build && THROTTLE=4 npx tsx test/bench/row-cost.ts 1
 *   PROFILE_PORT=4324; PROFILE_OUT=dir: serve another build; ROUNDS=5
 */
import { openReaderSession, servePreview } from './reader-page.ts';

const PORT = Number(process.env.PROFILE_PORT ?? 4324);
const thousands = Number(process.argv[2] ?? 1);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

/** In the page: per row kind, the median time of one row's style and layout (ms). */
const MEASURE = (rounds: number) => `(() => {
  const rows = [...document.querySelectorAll('.vl-row')];
  const by = {};
  for (const row of rows) {
    const item = row.querySelector('.rd-item, .rd-small, .rd-divider');
    const kind = item ? [...item.classList].filter((c) => c !== 'rd-item').join('.') || 'item' : 'none';
    const times = [];
    for (let i = 0; i < ${rounds}; i++) {
      row.style.display = 'none';
      void row.offsetHeight;
      const t0 = performance.now();
      row.style.display = '';
      void row.offsetHeight;
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    (by[kind] ??= []).push(times[times.length >> 1]);
  }
  return Object.entries(by).map(([k, v]) => k + ' ×' + v.length + ': ' + (v.reduce((s, x) => s + x, 0) / v.length).toFixed(2) + ' ms').join(' | ');
})()`;

async function main() {
  const stop = await servePreview(PORT, { outDir: process.env.PROFILE_OUT });
  try {
    const { page, context, close } = await openReaderSession(PORT, thousands * 1000, 2000);
    if (process.env.THROTTLE) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.THROTTLE) });
    console.log(`as built: ${await page.evaluate(MEASURE(ROUNDS))}`);
    for (const css of (process.env.EXTRA ?? '').split(';;').filter(Boolean)) {
      const handle = await page.evaluateHandle((css) => {
        const s = document.createElement('style');
        s.textContent = css;
        document.head.append(s);
        return s;
      }, css);
      console.log(`with ${css}: ${await page.evaluate(MEASURE(ROUNDS))}`);
      await handle.evaluate((s) => s.remove());
    }
    await close();
  } finally {
    stop();
  }
}

await main();
