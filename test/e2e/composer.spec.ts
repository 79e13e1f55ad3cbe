// Continuing a real pi session in Chromium with a model key: Settings → Models, the composer under
// the transcript, a picture from the camera input, a streamed reply, Stop; the provider is the
// loopback replay server (test/host/replay-server.ts), reached cross-origin with real preflights.
// The camera cannot be driven here: its <input capture> gets a real PNG file through setInputFiles.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { expect, test } from '@playwright/test';
import { addModel } from '../host/add-model.ts';
import { startReplayServer, type ReplayServer } from '../host/replay-server.ts';
import { dropFiles, fixture, IMPORTED, importSummary, openEmptyLibrary } from './app-helpers.ts';

const FIXTURE = 'real/xiayongchao-pi-demo-branch.jsonl';
const ID = '1de66ec6-9538-4997-8b92-a2da416c2dc0';
const KEY = 'sk-ant-e2e-key-abcdef';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

// The model code is kept by the service worker's cache.
test.use({ serviceWorkers: 'allow' });

let server: ReplayServer;
test.beforeEach(async () => {
  server = await startReplayServer();
});
test.afterEach(async () => {
  await server.close();
});

test('a key added in Models (the app then reaches that provider and no other origin), a message with a photo streams its reply, a reply longer than its box keeps the box at its largest and shows where the reply ends, Stop keeps what came; pi reads the file back; Continue from here makes a branch at that entry; a reply cut by the app going to the background is kept and Retry asks again; a draft the provider refused is kept; a New chat whose first reply was stopped offers Retry in the session it made', async ({
  page,
}) => {
  await openEmptyLibrary(page);
  await dropFiles(page, [{ name: 'demo.jsonl', text: fixture(FIXTURE).toString('utf8') }]);
  await expect(importSummary(page)).toHaveText('Added: 1', IMPORTED);
  await page.getByRole('region', { name: 'Import' }).getByRole('button', { name: 'Close' }).click();

  await addModel(page, { provider: 'anthropic', key: KEY, baseUrl: server.baseUrl('anthropic'), model: 'claude-sonnet-4-5' });
  // The key went to the worker: the page's own storage does not hold it.
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(KEY);

  // The core worker reaches only the origins in Models: another loopback server is refused (a network
  // error from the worker's own check, and from the service worker where it controls the worker; the
  // server sees nothing) until a base URL names it.
  const other = await startReplayServer();
  try {
    const core = page.workers().find((w) => new URL(w.url()).pathname.startsWith('/assets/'))!;
    const reach = (url: string) =>
      core.evaluate(
        (u) =>
          fetch(u).then(
            (r) => r.status,
            () => 'refused',
          ),
        url,
      );
    // The replay server answers a GET with 404 (and CORS headers): a status means the request went out.
    expect(await reach(server.baseUrl('anthropic'))).toBe(404);
    expect(await reach(other.baseUrl('openai-chat'))).toBe('refused');
    await page.getByLabel('Provider').selectOption('openai-compatible');
    await page.getByLabel('Base URL').fill(other.baseUrl('openai-chat'));
    await page.getByRole('textbox', { name: 'Model', exact: true }).fill('local-model');
    await page.getByRole('button', { name: 'Add model' }).click();
    await page.getByRole('button', { name: /^Remove OpenAI-compatible/ }).waitFor();
    expect(await reach(other.baseUrl('openai-chat'))).toBe(404);
    await page.getByRole('button', { name: /^Remove OpenAI-compatible/ }).click();
    await expect(page.getByRole('button', { name: /^Remove OpenAI-compatible/ })).toHaveCount(0);
    expect(await reach(`${other.baseUrl('openai-chat')}/models`)).toBe('refused');
  } finally {
    await other.close();
  }

  await page.goto(`/#/s/${ID}`);
  const composer = page.getByRole('region', { name: 'Continue this session' });
  await expect(composer.getByRole('textbox', { name: 'Message' })).toBeVisible();
  server.script({ kind: 'slow', reply: { text: ['The chart ', 'shows **two** ', 'branches.'], usage: { input: 1200, output: 40 } }, after: 4 });
  await composer.getByRole('textbox', { name: 'Message' }).fill('What does this photo show?');
  await composer.getByTestId('attach-camera').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG });
  await expect(composer.getByRole('list', { name: 'Attached' })).toContainText('photo.png');
  await composer.getByRole('button', { name: 'Send' }).click();
  await expect(composer.locator('.composer-reply')).toContainText('The chart');
  for (let i = 0; i < 8; i++) server.step();
  // The reply as it reads back from disk, in the transcript (not the composer's live copy).
  await expect(page.locator('.rd-panel-host')).toContainText('shows two branches.');
  await expect(composer.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(composer.locator('.composer-reply')).toHaveCount(0);
  // The turn just written is on screen: the message sent, then the reply.
  await expect(page.locator('.rd-row').filter({ hasText: 'What does this photo show?' })).toBeInViewport();

  const first = server.received[0];
  expect(first.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
  expect(first.headers['x-api-key']).toBe(KEY);
  const blocks = (first.body.messages as any[]).at(-1).content;
  expect(blocks.map((b: any) => b.type)).toEqual(['text', 'text', 'image']);
  expect(blocks[2].source.data).toBe(PNG.toString('base64'));

  // A slow reply stopped halfway: what arrived stays, as an aborted reply.
  // Its third piece is longer than the reply's box: the box stays at its largest height (45% of the
  // window's) and shows the reply's end, the start scrolled out above.
  const long = Array.from({ length: 40 }, (_, i) => `\n\nLine ${i} of the long part.`).join('');
  server.script({ kind: 'slow', reply: { text: ['Half of ', 'a reply ', long, 'that never ends.'] }, after: 6 });
  await composer.getByRole('textbox', { name: 'Message' }).fill('Tell me more');
  await composer.getByRole('button', { name: 'Send' }).click();
  const box = composer.locator('.composer-reply');
  await expect(box).toContainText('Half of a reply');
  await expect(box.getByText('Line 39 of the long part.')).toBeInViewport();
  await expect(box.getByText('Line 0 of the long part.')).not.toBeInViewport();
  await expect(box).toHaveClass(/composer-reply-full/);
  const [height, largest] = await box.evaluate((el) => [el.getBoundingClientRect().height, window.innerHeight * 0.45]);
  expect(Math.abs(height - largest)).toBeLessThan(1);
  await composer.getByRole('button', { name: 'Stop' }).click();
  await expect(composer.getByRole('status')).toContainText('Stopped');
  await server.until((r) => r[1]?.cancelled === true);
  await expect(page.locator('.rd-panel-host')).toContainText('Half of a reply');
  // The browser's abort reason is not news: the stopped turn reads as pi shows one.
  await expect(page.locator('.rd-assistant').filter({ hasText: 'Half of a reply' }).locator('.rd-error')).toHaveText('⚠ Operation aborted');

  // The file as stored, handed to pi 0.73.1.
  const text = await page.evaluate(async (id) => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle('sessions');
    const file = await (await dir.getFileHandle(`${encodeURIComponent(id)}.jsonl`)).getFile();
    return file.text();
  }, ID);
  expect(text.startsWith(fixture(FIXTURE).toString('utf8'))).toBe(true);
  const path = join(mkdtempSync(join(tmpdir(), 'rho-host-')), 'session.jsonl');
  writeFileSync(path, text);
  const pi = SessionManager.open(path);
  const added = text
    .slice(fixture(FIXTURE).toString('utf8').length)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(added.map((e) => e.type)).toEqual(['model_change', 'message', 'message', 'message', 'message']);
  const branchIds = pi.getBranch().map((e) => e.id);
  for (const e of added) expect(branchIds).toContain(e.id);
  const ctx = pi.buildSessionContext();
  expect(ctx.model).toEqual({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
  const last = ctx.messages.at(-1) as any;
  expect(last).toMatchObject({ role: 'assistant', stopReason: 'aborted', content: [{ type: 'text', text: `Half of a reply ${long}` }] });

  // "Continue from here" on the first reply: the next message's parent is that entry (a new branch, as pi's tree makes).
  const firstReply = added[2].id as string;
  await page.locator(`[data-entry="${firstReply}"]`).getByRole('button', { name: 'Continue from here' }).click();
  await expect(composer.getByText(/Continues from #\d+/)).toBeVisible();
  await expect(composer.getByRole('textbox', { name: 'Message' })).toBeFocused();
  server.script({ kind: 'reply', reply: { text: ['Another way: ', 'rebase first.'], usage: { input: 900, output: 12 } } });
  await composer.getByRole('textbox', { name: 'Message' }).fill('Another way?');
  await composer.getByRole('button', { name: 'Send' }).click();
  // The reader opens the new branch: its reply is there, the stopped one (another branch) is not.
  await expect(page.locator('.rd-panel-host')).toContainText('Another way: rebase first.');
  await expect(page.locator('.rd-panel-host')).not.toContainText('Half of a reply');
  await expect(composer.getByText(/Continues from #\d+/)).toHaveCount(0);
  const grown = await page.evaluate(async (id) => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle('sessions');
    return (await (await dir.getFileHandle(`${encodeURIComponent(id)}.jsonl`)).getFile()).text();
  }, ID);
  const branched = grown
    .slice(text.length)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(branched.map((e) => [e.type, e.message?.role])).toEqual([
    ['message', 'user'],
    ['message', 'assistant'],
  ]);
  expect(branched[0].parentId).toBe(firstReply);
  expect(branched[1].parentId).toBe(branched[0].id);

  // A phone puts the app in the background mid-reply (the OS ends the request): what arrived is kept
  // as an aborted reply, and Retry sends the same message again from where it was written.
  const asked = server.received.length;
  server.script({ kind: 'slow', reply: { text: ['Step one, ', 'step two, ', 'step three.'] }, after: 5 });
  await composer.getByRole('textbox', { name: 'Message' }).fill('List the steps');
  await composer.getByRole('button', { name: 'Send' }).click();
  await expect(composer.locator('.composer-reply')).toContainText('Step one');
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'maxTouchPoints', { value: 5, configurable: true });
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await server.until((r) => r[asked]?.cancelled === true);
  await expect(composer.getByRole('status')).toContainText('went to the background');
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const readFile = (of = ID) =>
    page.evaluate(async (id) => {
      const root = await navigator.storage.getDirectory();
      const dir = await root.getDirectoryHandle('sessions');
      return (await (await dir.getFileHandle(`${encodeURIComponent(id)}.jsonl`)).getFile()).text();
    }, of);
  const cut = (await readFile())
    .slice(grown.length)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(cut.map((e) => [e.message?.role, e.message?.stopReason])).toEqual([
    ['user', undefined],
    ['assistant', 'aborted'],
  ]);
  // What had arrived when the app left (the server sends the first pieces without waiting).
  expect(cut[1].message.content).toHaveLength(1);
  expect(cut[1].message.content[0].text).toMatch(/^Step one, (step two, )?$/);
  server.script({ kind: 'reply', reply: { text: ['Step one, two and three.'] } });
  await composer.getByRole('button', { name: 'Retry' }).click();
  await expect(page.locator('.rd-panel-host')).toContainText('Step one, two and three.');
  const retried = (await readFile())
    .slice(grown.length)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .slice(2);
  expect(retried.map((e) => [e.message?.role, e.message?.stopReason])).toEqual([
    ['user', undefined],
    ['assistant', 'stop'],
  ]);
  expect(retried[0].parentId).toBe(cut[0].parentId);
  expect(retried[0].message.content).toEqual(cut[0].message.content);
  // The provider got the very request of the first try.
  expect(server.received[asked + 1].body.messages).toEqual(server.received[asked].body.messages);
  await expect(composer.getByRole('button', { name: 'Retry' })).toHaveCount(0);

  // A message the provider refused before answering: nothing written, the draft stays in the field.
  server.script(...Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 500, retryAfter: 0, message: 'Overloaded' })));
  await composer.getByRole('textbox', { name: 'Message' }).fill('Still there?');
  await composer.getByRole('button', { name: 'Send' }).click();
  await expect(composer.getByRole('alert')).toContainText('your message is kept');
  await expect(composer.getByRole('textbox', { name: 'Message' })).toHaveValue('Still there?');

  // New chat: a first reply stopped halfway is kept in the session it made, which the reader opens,
  // and Retry there sends the same first message again from the same place.
  await composer.getByRole('button', { name: 'New chat' }).click();
  await expect(page.getByText('Back to this session')).toBeVisible();
  const started = server.received.length;
  server.script({ kind: 'slow', reply: { text: ['A fresh ', 'start that ', 'never ends.'] }, after: 5 });
  await composer.getByRole('textbox', { name: 'Message' }).fill('Start from nothing');
  await composer.getByRole('button', { name: 'Send' }).click();
  await expect(composer.locator('.composer-reply')).toContainText('A fresh');
  await composer.getByRole('button', { name: 'Stop' }).click();
  await server.until((r) => r[started]?.cancelled === true);
  await expect(page).not.toHaveURL(new RegExp(ID));
  const newId = decodeURIComponent(/#\/s\/([^/?]+)/.exec(page.url())![1]);
  await expect(page.locator('.rd-panel-host')).toContainText('A fresh');
  await expect(composer.getByRole('status')).toContainText('Stopped');
  server.script({ kind: 'reply', reply: { text: ['A fresh start, whole.'] } });
  await composer.getByRole('button', { name: 'Retry' }).click();
  await expect(page.locator('.rd-panel-host')).toContainText('A fresh start, whole.');
  expect(server.received[started + 1].body.messages).toEqual(server.received[started].body.messages);
  const fresh = (await readFile(newId))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(fresh.map((e) => [e.type, e.message?.role, e.message?.stopReason])).toEqual([
    ['session', undefined, undefined],
    ['model_change', undefined, undefined],
    ['message', 'user', undefined],
    ['message', 'assistant', 'aborted'],
    ['message', 'user', undefined],
    ['message', 'assistant', 'stop'],
  ]);
  expect(fresh[4].parentId).toBe(fresh[1].id);
  expect(fresh[4].message.content).toEqual(fresh[2].message.content);

  // pi-ai's provider code is not precached: the service worker kept it when the worker first loaded it.
  const kept = await page.evaluate(async () => (await (await caches.open('rho-model-code-v1')).keys()).map((r) => new URL(r.url).pathname));
  expect(kept.some((p) => /^\/assets\/ai-anthropic-[\w-]+\.js$/.test(p))).toBe(true);
});
