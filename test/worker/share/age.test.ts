// age copies: a round trip with the age-encryption library, a wrong password named as such, and,
// where the age command-line tool is installed (Debian package `age`), its `age -d` opens what we
// encrypt and we open what `age -p` encrypts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decrypter, Encrypter } from 'age-encryption';
import { afterAll, describe, expect, test } from 'vitest';
import { decryptBlob, encryptBlob, isAge } from '../../../src/worker/share/age.ts';

const tmp = mkdtempSync(join(tmpdir(), 'rho-age-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const plain = `${JSON.stringify({ type: 'session', version: 3, id: 's', cwd: '/p' })}\n${'x'.repeat(100_000)}\n`;
const bytes = async (b: Blob) => new Uint8Array(await b.arrayBuffer());
const hasAgeCli = spawnSync('age', ['--version']).status === 0;
// scrypt at age's default work factor (2^18) in pure JavaScript: seconds each on a busy machine; a ceiling, not a timing.
const SCRYPT = 240_000;
const PTY = new URL('../../tools/age-pty.py', import.meta.url).pathname;
/** A low scrypt work factor (2^10) for the round trips that are not about the work factor. */
const LOW = 10;
/** The work factor written in an age file's scrypt stanza (`-> scrypt <salt> <log2 N>`). */
const workFactorOf = (head: Uint8Array) => Number(/\n-> scrypt \S+ (\d+)\n/.exec(new TextDecoder().decode(head.slice(0, 200)))?.[1]);

describe('age copies', () => {
  test(
    'encrypted in our code, decrypted by the library, and back through ours',
    async () => {
      const sealed = await encryptBlob(new Blob([plain]), 'river stone', LOW);
      const head = await bytes(sealed);
      expect(isAge(head)).toBe(true);
      expect(new TextDecoder().decode(head.slice(0, 60))).toMatch(/^age-encryption\.org\/v1\n-> scrypt /);
      expect(workFactorOf(head)).toBe(LOW);
      const d = new Decrypter();
      d.addPassphrase('river stone');
      expect(await d.decrypt(head, 'text')).toBe(plain);
      expect(await (await decryptBlob(sealed, 'river stone', 'x.jsonl.age')).text()).toBe(plain);
    },
    SCRYPT,
  );

  test('a wrong password, and a file that is not age, say so and name the file', async () => {
    const e = new Encrypter();
    e.setPassphrase('right');
    e.setScryptWorkFactor(LOW);
    const sealed = new Blob([(await e.encrypt(plain)) as BlobPart]);
    await expect(decryptBlob(sealed, 'wrong', 'notes.md.age')).rejects.toMatchObject({
      code: 'invalid-input',
      message: expect.stringMatching(/^Wrong password for notes\.md\.age/),
    });
    await expect(decryptBlob(new Blob([plain]), 'right', 'plain.age')).rejects.toMatchObject({
      code: 'invalid-input',
      message: 'plain.age is not an age file.',
    });
  });

  // The full work factor twice: our default copy opened by the age command (native, fast), and the
  // age command's copy (always 2^18) opened by our code.
  test.runIf(hasAgeCli)(
    "the age command opens our copy (at age's default work factor), and we open its copy",
    async () => {
      const ours = join(tmp, 'ours.age');
      const sealed = await bytes(await encryptBlob(new Blob([plain]), 'river stone'));
      expect(workFactorOf(sealed)).toBe(18);
      writeFileSync(ours, sealed);
      const out = join(tmp, 'ours.out');
      expect(spawnSync('python3', [PTY, 'river stone', '-d', '-o', out, ours]).status).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe(plain);
      const src = join(tmp, 'theirs.txt');
      writeFileSync(src, plain);
      expect(spawnSync('python3', [PTY, 'sea glass', '-p', '-o', `${src}.age`, src]).status).toBe(0);
      expect(workFactorOf(readFileSync(`${src}.age`))).toBe(18);
      expect(await (await decryptBlob(new Blob([readFileSync(`${src}.age`)]), 'sea glass', 'theirs.txt.age')).text()).toBe(plain);
    },
    SCRYPT,
  );
});

test('an age file imported without its .age name is refused with the reason, nothing stored', async () => {
  const { createApi } = await import('../../../src/worker/api.ts');
  const { memoryStore } = await import('../../storage/helpers.ts');
  const { store } = memoryStore();
  const api = createApi({ store, now: () => new Date(0), randomId: () => 'abcdef01' });
  const e = new Encrypter();
  e.setPassphrase('p');
  e.setScryptWorkFactor(LOW);
  const report = await api.importFiles({ files: [new File([(await e.encrypt(plain)) as BlobPart], 'session.jsonl')] });
  expect(report.items).toEqual([{ name: 'session.jsonl', outcome: 'rejected', reason: expect.stringMatching(/^encrypted \(age\)/) }]);
  expect(await api.listSessions({})).toEqual([]);
});
