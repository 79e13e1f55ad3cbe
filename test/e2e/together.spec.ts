// The whole promise, with every part real: pi writes a session in its folder on the laptop, where
// the sync command line (`npm run sync -- watch`) runs; a phone-sized Chromium paired by the link
// and code the laptop printed has it in its library with no tap; pi's next turn on the laptop shows
// in the phone's open reader with no tap; the user goes on there with a model (the loopback replay
// server speaking Anthropic's stream); the turn is appended to pi's own file on the laptop, whose
// bytes are kept; and pi 0.73.1's SessionManager resumes it: its branch ends with the phone's turn,
// and pi's next entry hangs from it. A real S3 server (s3rver) on loopback holds the space.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { expect, test } from '@playwright/test';
import { addModel } from '../host/add-model.ts';
import { startReplayServer } from '../host/replay-server.ts';
import { device, linkOf, startCli, tempDir } from '../sync/cli-helpers.ts';
import { S3_KEY, S3_SECRET, startS3 } from '../sync/servers.ts';
import { fixture } from './app-helpers.ts';
import { port } from './playwright.config.ts';
import { SIZES } from './sizes.ts';

const ORIGIN = `http://localhost:${port}`;
const FIXTURE = 'real/xiayongchao-pi-demo-branch.jsonl';
const ID = '1de66ec6-9538-4997-8b92-a2da416c2dc0';
const PATH = '--Users-zhangzhenai-Documents-work-space-ts-pi-demo--/2026-03-25T13-02-32-145Z_1de66ec6-9538-4997-8b92-a2da416c2dc0.jsonl';
const SLOW = { timeout: 60_000 };

test.use(SIZES[1].use);

test('pi writes on the laptop, the phone has it with no tap, the user goes on there, and pi resumes it on the laptop', async ({ browser }) => {
  test.setTimeout(240_000);
  const s3 = await startS3({ origins: [ORIGIN] });
  const model = await startReplayServer();
  const laptop = device(tempDir('together'), 'laptop');
  const file = join(laptop.folder, PATH);
  const env = { AWS_ACCESS_KEY_ID: S3_KEY, AWS_SECRET_ACCESS_KEY: S3_SECRET };
  let watching: ReturnType<typeof startCli> | undefined;
  const phone = await browser.newContext({ ...SIZES[1].use, baseURL: ORIGIN });
  try {
    // The laptop: pi's session in its folder, a space made from a terminal, the folder watched.
    const original = fixture(FIXTURE);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, original);
    const init = await laptop.run(
      ['init', '--s3', s3.endpoint, '--bucket', s3.bucket, '--prefix', 'together/', '--name', 'laptop', '--app', `${ORIGIN}/`],
      env,
    );
    expect(init.code, init.stderr).toBe(0);
    const { link, code } = linkOf(init);
    watching = startCli(laptop.config, ['watch', laptop.folder], env);
    await watching.line(/^sent \d+ object/);

    // The phone: the link, the code, "Pair this device"; the session arrives with no tap.
    const page = await phone.newPage();
    await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
    await page.getByLabel('Code (shown beside the QR code)').fill(code!);
    await page.getByRole('button', { name: 'Open the link' }).click();
    await expect(page.getByTestId('pair-where')).toContainText(`S3 bucket ${s3.bucket}`, SLOW);
    await page.getByLabel('This device’s name', { exact: true }).fill('phone');
    await page.getByRole('button', { name: 'Pair this device' }).click();
    await expect(page.locator('tr[data-device="laptop"]')).toBeVisible(SLOW);
    await addModel(page, { provider: 'anthropic', key: 'sk-ant-e2e', baseUrl: model.baseUrl('anthropic'), model: 'claude-sonnet-4-5' });
    await page.goto('/#/');
    await expect(page.locator('.session-card')).toHaveCount(1, SLOW);
    await page.goto(`/#/s/${ID}`);
    const transcript = page.locator('.rd-panel-host');
    await expect(transcript).toContainText('我叫', SLOW);

    // pi's next turn on the laptop reaches the open reader with no tap.
    const onLaptop = SessionManager.open(file, dirname(file));
    onLaptop.appendMessage({ role: 'user', content: [{ type: 'text', text: 'Written by pi on the laptop' }], timestamp: 1_780_000_000_000 });
    await expect(transcript).toContainText('Written by pi on the laptop', SLOW);
    const beforePhone = readFileSync(file);

    // The user goes on from the phone.
    const composer = page.getByRole('region', { name: 'Continue this session' });
    model.script({ kind: 'reply', reply: { text: ['Continued on the phone.'] } });
    await composer.getByRole('textbox', { name: 'Message' }).fill('Go on from the phone');
    await composer.getByRole('button', { name: 'Send' }).click();
    await expect(transcript).toContainText('Continued on the phone.');

    // Back in pi's own folder: appended after pi's bytes, never rewritten.
    await expect.poll(() => readFileSync(file, 'utf8'), SLOW).toContain('Continued on the phone.');
    const grown = readFileSync(file);
    expect(grown.subarray(0, beforePhone.length).equals(beforePhone)).toBe(true);

    // pi resumes it: the branch ends with the phone's turn, and pi's next entry hangs from it.
    const resumed = SessionManager.open(file, dirname(file));
    const branch = resumed.getBranch();
    const reply = branch.at(-1) as { type: string; id: string; message: { role: string; content: { text?: string }[] } };
    expect(reply.message.role).toBe('assistant');
    expect(reply.message.content.map((c) => c.text).join('')).toBe('Continued on the phone.');
    const asked = branch.at(-2) as { message: { role: string; content: { text?: string }[] } };
    expect(asked.message.role).toBe('user');
    expect(asked.message.content[0].text).toBe('Go on from the phone');
    const messages = resumed.buildSessionContext().messages;
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Continued on the phone.' }] });
    const next = resumed.appendMessage({ role: 'user', content: [{ type: 'text', text: 'pi again, after the phone' }], timestamp: 1_780_000_100_000 });
    expect(SessionManager.open(file, dirname(file)).getEntry(next)?.parentId).toBe(reply.id);
    await expect(transcript).toContainText('pi again, after the phone', SLOW);
    // The phone kept what it received: after a reload the session reads from its own storage.
    await page.reload();
    await expect(transcript).toContainText('pi again, after the phone');
  } finally {
    await phone.close();
    await watching?.interrupt();
    await model.close();
    await s3.stop();
  }
});
