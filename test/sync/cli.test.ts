// The sync command line against a real S3 server (s3rver on loopback): two devices, each with its
// own settings file and agent folder, pair by link and code, and converge. pi 0.73.1's own
// SessionManager writes the appends and opens what the command line wrote back.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Device, device, filesUnder, linkOf, tempDir } from './cli-helpers.ts';
import { S3_KEY, S3_SECRET, type S3Server, startS3 } from './servers.ts';

const FIXTURE = new URL('../../fixtures/real/frinfo702-dotfiles-subagent-parent.jsonl', import.meta.url);
const PATH = '--Users-ken702-ghq-github.com-frinfo702-dotfiles--/2026-05-26T05-30-28-297Z_019e62c3-5249-7057-9390-c72853be72e9.jsonl';
const ID = '019e62c3-5249-7057-9390-c72853be72e9';
const original = readFileSync(FIXTURE);
const env = { AWS_ACCESS_KEY_ID: S3_KEY, AWS_SECRET_ACCESS_KEY: S3_SECRET };

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.stop();
});

/** Two paired devices on a fresh prefix; the laptop's folder holds pi's session. */
async function pairedDevices(label: string): Promise<{ laptop: Device; phone: Device }> {
  const base = tempDir(label);
  const laptop = device(base, 'laptop');
  const phone = device(base, 'phone');
  const init = await laptop.run(['init', '--s3', s3.endpoint, '--bucket', s3.bucket, '--prefix', `${label}/`, '--name', 'laptop'], env);
  expect(init.code, init.stderr).toBe(0);
  const { link, code } = linkOf(init);
  expect(link.startsWith('http://localhost:4173/#pair=e.')).toBe(true);
  const pair = await phone.run(['pair', link, '--code', code!, '--name', 'phone']);
  expect(pair.code, pair.stderr).toBe(0);
  mkdirSync(dirname(join(laptop.folder, PATH)), { recursive: true });
  copyFileSync(FIXTURE, join(laptop.folder, PATH));
  return { laptop, phone };
}

async function once(d: Device): Promise<void> {
  const run = await d.run(['once', d.folder]);
  expect(run.code, `${d.name}: ${run.stdout}${run.stderr}`).toBe(0);
}

/** pi continues the session in `file`: appends a user message and gives its entry id. */
function piAppends(file: string, text: string): string {
  const sm = SessionManager.open(file, dirname(file));
  return sm.appendMessage({ role: 'user', content: [{ type: 'text', text }], timestamp: 1_780_000_000_000 });
}

describe('sync command line over S3', { timeout: 300_000 }, () => {
  test('two devices converge; appends go both ways; pi opens what was written back and its branch holds the new entries', async () => {
    const { laptop, phone } = await pairedDevices('converge');
    await once(laptop);
    await once(phone);
    const onPhone = join(phone.folder, PATH);
    expect(readFileSync(onPhone).equals(original)).toBe(true);

    const phoneEntry = piAppends(onPhone, 'Written on the phone');
    await once(phone);
    await once(laptop);
    const onLaptop = join(laptop.folder, PATH);
    const back = readFileSync(onLaptop);
    expect(back.subarray(0, original.length).equals(original)).toBe(true); // the agent's bytes kept, appended after
    expect(back.equals(readFileSync(onPhone))).toBe(true);
    const pi = SessionManager.open(onLaptop, dirname(onLaptop));
    expect(pi.getSessionId()).toBe(ID);
    expect(pi.getBranch().map((e) => e.id)).toContain(phoneEntry);

    const laptopEntry = piAppends(onLaptop, 'Written on the laptop');
    await once(laptop);
    await once(phone);
    expect(readFileSync(onPhone).equals(readFileSync(onLaptop))).toBe(true);
    const branch = SessionManager.open(onPhone, dirname(onPhone))
      .getBranch()
      .map((e) => e.id);
    expect(branch.slice(-2)).toEqual([phoneEntry, laptopEntry]);
    expect([...filesUnder(phone.folder).keys()]).toEqual([PATH]);

    // settings and state are readable by the user only
    expect(statSync(laptop.config).mode & 0o777).toBe(0o600);
    expect(statSync(`${phone.config}.state`).mode & 0o777).toBe(0o600);
    // a plain link only with a warning
    const plain = await laptop.run(['link', '--plain', '--app', 'https://sessions.example/']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^https:\/\/sessions\.example\/#pair=p\./);
    expect(plain.stderr).toMatch(/warning: this link is not locked/);
  });

  test('a wrong code is refused with a clear line and pairs nothing', async () => {
    const base = tempDir('code');
    const laptop = device(base, 'laptop');
    const phone = device(base, 'phone');
    const { link, code } = linkOf(await laptop.run(['init', '--s3', s3.endpoint, '--bucket', s3.bucket, '--prefix', 'code/'], env));
    const wrong = code!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    const run = await phone.run(['pair', link, '--code', wrong]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe('rho-sessions sync: This code does not open the link: check the code shown beside it (or the link was cut short).');
    expect(existsSync(phone.config)).toBe(false);
  });

  test('errors are one line with a non-zero exit: a wrong access key at init names the provider answer', async () => {
    const base = tempDir('auth');
    const run = await device(base, 'laptop').run(['init', '--s3', s3.endpoint, '--bucket', s3.bucket], {
      AWS_ACCESS_KEY_ID: 'NOT-A-KEY',
      AWS_SECRET_ACCESS_KEY: S3_SECRET,
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/InvalidAccessKeyId — the key or password is not accepted/);
  });
});
