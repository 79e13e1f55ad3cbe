// A real pi session continued on a phone-sized screen in Chromium: a photo, notes attached as files,
// a Stop, a stream cut mid-reply, a switch of model, a Compact; then the file, as stored, handed to
// pi 0.73.1 in Node. Its branch holds every new entry, and what pi would send for it (its
// buildSessionContext + convertToLlm, through the same pi-ai provider to the same loopback server)
// is what the app sent last, with §0's rules where they differ from pi (test/host/pi-request.ts).
import { expect, type Page, test } from '@playwright/test';
import { appendedEntries, CONTINUED_KINDS, kindOf, openInPi, piAnthropicRequest, piMessagesAt } from '../host/pi-request.ts';
import { addModel } from '../host/add-model.ts';
import { type ReplayServer, startReplayServer } from '../host/replay-server.ts';
import { dropFiles, fixture, IMPORTED, importSummary, openEmptyLibrary } from './app-helpers.ts';
import { SIZES } from './sizes.ts';

const FIXTURE = 'real/xiayongchao-pi-demo-branch.jsonl';
const ID = '1de66ec6-9538-4997-8b92-a2da416c2dc0';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
// 50 KB of text: an attachment of about 12,800 tokens by pi's estimate (the compaction keeps it, and summarizes the photo away).
const notes = (word: string) => ({ name: `${word}.md`, mimeType: 'text/markdown', buffer: Buffer.from(`${word} `.repeat(51_200 / (word.length + 1))) });

test.use(SIZES[1].use);

let server: ReplayServer;
test.beforeEach(async () => {
  server = await startReplayServer();
});
test.afterEach(async () => {
  await server.close();
});

function storedText(page: Page): Promise<string> {
  return page.evaluate(async (id) => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('sessions');
    return (await (await dir.getFileHandle(`${encodeURIComponent(id)}.jsonl`)).getFile()).text();
  }, ID);
}

test('on a phone: a photo, a Stop, a cut stream, another model and a Compact are appended as pi reads them, and pi would send what the app sent', async ({
  page,
}) => {
  const original = fixture(FIXTURE).toString('utf8');
  await openEmptyLibrary(page);
  await dropFiles(page, [{ name: 'demo.jsonl', text: original }]);
  await expect(importSummary(page)).toHaveText('Added: 1', IMPORTED);
  await page.getByRole('region', { name: 'Import' }).getByRole('button', { name: 'Close' }).click();
  await addModel(page, { provider: 'anthropic', key: 'sk-ant-e2e', baseUrl: server.baseUrl('anthropic'), model: 'claude-sonnet-4-5' });
  await addModel(page, { provider: 'openai', key: 'sk-openai-e2e', baseUrl: server.baseUrl('openai-responses'), model: 'gpt-4.1' });

  await page.goto(`/#/s/${ID}`);
  const composer = page.getByRole('region', { name: 'Continue this session' });
  const transcript = page.locator('.rd-panel-host');
  const message = composer.getByRole('textbox', { name: 'Message' });
  const picker = composer.getByRole('combobox', { name: 'Model' });
  const pick = async (model: string) => picker.selectOption({ label: (await picker.locator('option', { hasText: model }).textContent()) ?? model });
  const send = async (text: string) => {
    await message.fill(text);
    await composer.getByRole('button', { name: 'Send' }).click();
  };
  const settled = async () => {
    await expect(composer.getByRole('button', { name: 'Send' })).toBeVisible();
    await expect(composer.locator('.composer-reply')).toHaveCount(0);
  };
  await pick('claude-sonnet-4-5');

  server.script({ kind: 'reply', reply: { thinking: ['Looking.'], signature: 'sig-a', text: ['A small chart.'] } });
  await composer.getByTestId('attach-camera').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG });
  await send('What is this?');
  await expect(transcript).toContainText('A small chart.');
  await settled();

  // Stopped halfway: what arrived is kept.
  server.script({ kind: 'slow', reply: { text: ['Reading ', 'the notes', ' in full.'] }, after: 4 });
  await composer.getByTestId('attach-files').setInputFiles(notes('alpha'));
  await send('Read these notes');
  await expect(composer.locator('.composer-reply')).toContainText('Reading');
  await composer.getByRole('button', { name: 'Stop' }).click();
  await expect(composer.getByRole('status')).toContainText('Stopped');
  await settled();

  // The connection dropped mid-reply: an error the user sees, what came kept.
  server.script({ kind: 'slow', reply: { text: ['Half ', 'of it', ' lost'] }, after: 5 });
  await composer.getByTestId('attach-files').setInputFiles(notes('beta'));
  await send('And these');
  await expect(composer.locator('.composer-reply')).toContainText('Half of it');
  server.drop();
  await expect(composer.getByRole('alert')).toBeVisible();
  await expect(transcript).toContainText('Half of it');
  await settled();

  await pick('gpt-4.1');
  server.script({ kind: 'reply', reply: { text: ['From OpenAI.'], usage: { input: 40_000, output: 10 } } });
  await send('Your view?');
  await expect(transcript).toContainText('From OpenAI.');
  await settled();

  server.script({ kind: 'reply', reply: { text: ['## Goal\nRead the notes.'] } });
  await composer.getByRole('button', { name: 'Compact' }).click();
  await expect.poll(async () => (await storedText(page)).includes('"type":"compaction"')).toBe(true);
  await expect(composer.getByRole('button', { name: 'Compact' })).toBeEnabled();

  await pick('claude-sonnet-4-5');
  server.script({ kind: 'reply', reply: { text: ['Back on Anthropic.'] } });
  await send('Summarize where we are');
  await expect(transcript).toContainText('Back on Anthropic.');
  await settled();

  const text = await storedText(page);
  expect(text.startsWith(original)).toBe(true);
  const added = appendedEntries(text, original);
  expect(added.map(kindOf)).toEqual(CONTINUED_KINDS);
  expect(added.map((e) => e.message?.stopReason).filter(Boolean)).toEqual(['stop', 'aborted', 'error', 'stop', 'stop']);
  expect(added[7].customType).toMatch(/\.error$/);
  expect(added[11]).toMatchObject({ method: 'soft', fromExtension: false, firstKeptEntryId: added[3].id });
  expect(added[1].message.attachments.map((a: { name: string }) => a.name)).toEqual(['photo.png']);

  const { pi, branch } = openInPi(text);
  for (const e of added) expect(branch.has(e.id)).toBe(true);
  expect(pi.buildSessionContext().model).toEqual({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
  const ours = server.received.at(-1)!.body;
  // Our last request was made before its reply: pi's context at the message it answered.
  const pis = await piAnthropicRequest(server, piMessagesAt(pi, added[13].id));
  expect(JSON.stringify(pis.messages)).toContain(`- photo.png (image/png) at ${added[1].message.attachments[0].path}`);
  expect(pis.messages).toEqual(ours.messages);
  expect(pis.system).toEqual(ours.system);
  expect(pis.tools).toEqual(ours.tools);
});
