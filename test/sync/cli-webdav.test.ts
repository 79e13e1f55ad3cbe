// The command line over a real WebDAV server (webdav-server on loopback): `init --webdav` with the
// credentials from the environment, `pair`, and `watch` following both ways — a change from the
// other device comes in at the next poll, a change pi makes in the folder goes out at once.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { device, linkOf, startCli, tempDir } from './cli-helpers.ts';
import { type DavServer, startWebDav } from './servers.ts';

let dav: DavServer;
beforeAll(async () => {
  dav = await startWebDav();
});
afterAll(async () => {
  await dav?.stop();
});

const line = (o: Record<string, unknown>) => `${JSON.stringify(o)}\n`;
const PATH = '--home-me-proj--/2026-06-01T10-00-00-000Z_s-1.jsonl';

describe('sync command line over WebDAV', () => {
  test('init, pair, then watch takes the other device’s appends in and sends the folder’s own out', { timeout: 300_000 }, async () => {
    const base = tempDir('dav');
    const laptop = device(base, 'laptop');
    const phone = device(base, 'phone');
    const init = await laptop.run(['init', '--webdav', dav.url, '--name', 'laptop'], { WEBDAV_USERNAME: dav.username, WEBDAV_PASSWORD: dav.password });
    expect(init.code, init.stderr).toBe(0);
    const { link, code } = linkOf(init);
    expect((await phone.run(['pair', link, '--code', code!])).code).toBe(0);
    expect(readFileSync(laptop.config, 'utf8')).toContain(dav.password); // kept in the 0600 settings, read from the environment once

    const file = join(laptop.folder, PATH);
    mkdirSync(dirname(file), { recursive: true });
    const start = line({ type: 'session', version: 3, id: 's-1', timestamp: '2026-06-01T10:00:00.000Z', cwd: '/home/me/proj' });
    writeFileSync(file, start);

    const watching = startCli(laptop.config, ['watch', laptop.folder]);
    try {
      await watching.line(/^sent 1 object/);
      expect((await phone.run(['once', phone.folder])).code).toBe(0);
      const onPhone = join(phone.folder, PATH);
      expect(readFileSync(onPhone, 'utf8')).toBe(start);

      const fromPhone = line({ type: 'message', id: 'p1', parentId: null, message: { role: 'user', content: 'from the phone' } });
      appendFileSync(onPhone, fromPhone);
      const seen = watching.line(/appended 1/);
      expect((await phone.run(['once', phone.folder])).code).toBe(0);
      await seen;
      expect(readFileSync(file, 'utf8')).toBe(start + fromPhone);

      const fromPi = line({ type: 'message', id: 'l1', parentId: 'p1', message: { role: 'assistant', content: 'from pi on the laptop' } });
      const sent = watching.line(/^sent [1-9]\d* object\(s\) \([1-9]/);
      appendFileSync(file, fromPi);
      await sent;
      expect((await phone.run(['once', phone.folder])).code).toBe(0);
      expect(readFileSync(onPhone, 'utf8')).toBe(start + fromPhone + fromPi);
    } finally {
      expect(await watching.interrupt()).toBe(0);
    }
  });
});
