// `npm run screenshots`: what the app looks like, for the README and the install dialog (the web
// manifest's `screenshots`). Builds the app, serves the production build, imports committed
// fixtures through the app's own drop path and saves phone and laptop shots of the library and
// the reader into public/screenshots/, and a phone continuing the sample session with a photo: the
// model is the loopback replay server (test/host/replay-server.ts), added in Settings → Models with
// its Base URL, as a person adds a local model. `--no-build` reuses dist/.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { addModel } from '../host/add-model.ts';
import { startReplayServer } from '../host/replay-server.ts';
import { chromiumLaunchOptions } from './browser.ts';

const root = resolve(import.meta.dirname, '../..');
const out = resolve(root, 'public/screenshots');
const port = Number(process.env.SCREENSHOT_PORT ?? 4192);
const base = `http://localhost:${port}`;

/** Sessions shown in the shots: real files from public repositories, and the sample. */
const FIXTURES = [
  'samples/welcome.jsonl',
  'real/pi-mono-large-session.jsonl',
  'real/pi-mono-before-compaction-first-762-lines.jsonl',
  'other-agents/claude/SWORDIntel-claude-backups-v1.0.89-sidechain-thinking.jsonl',
  'other-agents/codex/Fegor-Basic-Rootkit-v0.40.0.jsonl',
];
/** The session the reader shots open (the sample: short, with tool calls, thinking and code). */
const READER = 'samples/welcome.jsonl';

const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  laptop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
} as const;

async function waitForServer(): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(base)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function importAll(page: Page): Promise<void> {
  const files = FIXTURES.map((path) => ({ name: basename(path), text: readFileSync(resolve(root, 'fixtures', path), 'utf8') }));
  await page.goto(base);
  await page.getByRole('heading', { name: 'Your library is empty' }).waitFor();
  await page.evaluate((files) => {
    const data = new DataTransfer();
    for (const f of files) data.items.add(new File([f.text], f.name));
    const target = document.querySelector('main') ?? document.body;
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, files);
  await page
    .locator('.import-summary')
    .filter({ hasText: `Added: ${files.length}` })
    .waitFor({ timeout: 60_000 });
  await page.getByRole('region', { name: 'Import' }).getByRole('button', { name: 'Close' }).click();
}

/** The sample session's id. */
function readerId(): string {
  const text = readFileSync(resolve(root, 'fixtures', READER), 'utf8');
  return JSON.parse(text.slice(0, text.indexOf('\n'))).id as string;
}

/** A phone continuing the sample: a photo of the laptop's screen and a question, the answer read back from the file. */
async function shootComposer(browser: Awaited<ReturnType<typeof chromium.launch>>): Promise<void> {
  const server = await startReplayServer();
  const context = await browser.newContext({ ...SIZES.phone, colorScheme: 'light' });
  try {
    const page = await context.newPage();
    await importAll(page);
    await addModel(page, { provider: 'anthropic', key: 'sk-ant-screenshot', baseUrl: server.baseUrl('anthropic'), model: 'claude-sonnet-4-5' });
    await page.goto(`${base}/#/s/${encodeURIComponent(readerId())}`);
    const composer = page.getByRole('region', { name: 'Continue this session' });
    server.script({
      kind: 'reply',
      reply: {
        text: [
          'The screen shows the reader on the laptop. ',
          'For this change I would write:\n\n',
          '```\nreader: open at the last message\n```\n\n',
          'Then `git push` from the laptop, where pi can resume this session.',
        ],
        usage: { input: 5200, output: 64 },
      },
    });
    await composer.getByRole('textbox', { name: 'Message' }).fill('A photo of my laptop: what commit message fits?');
    await composer.getByTestId('attach-camera').setInputFiles(resolve(out, 'laptop-reader.png'));
    await composer.getByRole('button', { name: 'Send' }).click();
    // The reply as read back from the session file, in the transcript.
    await page.locator('.rd-panel-host').getByText('where pi can resume this session').waitFor({ timeout: 60_000 });
    await composer.getByRole('button', { name: 'Send' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.rd [data-md="pending"]').length === 0);
    await page.screenshot({ path: resolve(out, 'phone-composer.png') });
  } finally {
    await context.close();
    await server.close();
  }
}

async function shoot(kind: keyof typeof SIZES, browser: Awaited<ReturnType<typeof chromium.launch>>): Promise<void> {
  const context = await browser.newContext({ ...SIZES[kind], colorScheme: 'light' });
  const page = await context.newPage();
  await importAll(page);
  await page.locator('.session-card').first().waitFor();
  await page.screenshot({ path: resolve(out, `${kind}-library.png`) });
  await page.goto(`${base}/#/s/${encodeURIComponent(readerId())}`);
  await page.locator('.rd-row').first().waitFor();
  // Markdown swapped in on every row on screen before the shot.
  await page.waitForFunction(() => document.querySelectorAll('.rd [data-md="pending"]').length === 0);
  await page.screenshot({ path: resolve(out, `${kind}-reader.png`) });
  await context.close();
}

mkdirSync(out, { recursive: true });
if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = spawn('node_modules/.bin/vite', ['preview', '--port', String(port), '--strictPort'], { cwd: root, stdio: 'ignore', detached: true });
try {
  await waitForServer();
  const browser = await chromium.launch(chromiumLaunchOptions());
  for (const kind of Object.keys(SIZES) as Array<keyof typeof SIZES>) await shoot(kind, browser);
  await shootComposer(browser);
  await browser.close();
  console.log(`Screenshots written to ${out}`);
} finally {
  if (server.pid) process.kill(-server.pid, 'SIGTERM');
}
