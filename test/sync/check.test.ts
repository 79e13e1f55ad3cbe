// "Check" tells the provider's answers apart, from real servers on loopback: a wrong key, a missing
// bucket, a clock off by an hour, a key that may read but not write, nothing listening. (A browser's
// CORS refusal can only be seen in a browser: the e2e specs cover it.)
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkSpace, createSpace, newIdentity, spaceKeys, webdavTransport, type SpaceKeys, type Transport } from '../../src/sync/index.ts';
import { s3Transport } from '../../src/sync/transports/s3.ts';
import { type DavServer, type S3Server, startS3, startWebDav } from './servers.ts';

let s3: S3Server;
let dav: DavServer;
let keys: SpaceKeys;
beforeAll(async () => {
  [s3, dav] = await Promise.all([startS3(), startWebDav()]);
  keys = await spaceKeys(await newIdentity());
});
afterAll(async () => {
  await Promise.all([s3?.stop(), dav?.stop()]);
});

const s3With = (over: Partial<Parameters<typeof s3Transport>[0]> = {}, opts = {}): Transport => s3Transport({ ...s3.settings('check/'), ...over }, opts);

async function codeOf(t: Transport): Promise<string | undefined> {
  const result = await checkSpace({ transport: t, keys });
  return result.ok ? 'ok' : result.error?.code;
}

describe('Check against real servers', () => {
  test('S3: a good key passes; an unknown key, a missing bucket, a skewed clock are each named', async () => {
    expect(await codeOf(s3With())).toBe('ok');
    expect(await codeOf(s3With({ accessKeyId: 'NOPE' }))).toBe('auth');
    expect(await codeOf(s3With({ bucket: 'no-such-bucket' }))).toBe('no-such-bucket');
    const skewed = s3With({}, { datetime: () => new Date(Date.now() - 3_600_000).toISOString().replace(/[:-]|\.\d{3}/g, '') });
    const result = await checkSpace({ transport: skewed, keys });
    expect(result.error?.code).toBe('clock-skew');
    expect(result.error?.message).toMatch(/RequestTimeTooSkewed — the provider refused the request’s time/);
  });

  test('WebDAV: a good password passes; a wrong one is auth; a read-only user is forbidden-write; a missing folder is named', async () => {
    const t = (username: string, password: string, url = dav.url) => webdavTransport({ kind: 'webdav', url, username, password });
    expect(await codeOf(t(dav.username, dav.password))).toBe('ok');
    expect(await codeOf(t(dav.username, 'wrong'))).toBe('auth');
    expect(await codeOf(t(dav.reader.username, dav.reader.password))).toBe('forbidden-write');
    expect(await codeOf(t(dav.username, dav.password, `${dav.url}missing/folder/`))).toBe('no-such-bucket');
  });

  test('nothing listening: network, with the reason', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const result = await checkSpace({ transport: s3With({ endpoint: `http://127.0.0.1:${port}` }), keys });
    expect(result.error?.code).toBe('network');
    expect(result.error?.message).toMatch(/got no answer \(.*ECONNREFUSED/);
  });

  test('a space made with one key is "foreign" to another', async () => {
    const t = s3With({ prefix: 'owned/' });
    await createSpace(t, keys, 1);
    expect((await checkSpace({ transport: t, keys })).space).toBe('ours');
    const other = await spaceKeys(await newIdentity());
    expect((await checkSpace({ transport: t, keys: other })).space).toBe('foreign');
    await expect(createSpace(t, other, 1)).rejects.toThrow(/already holds a sync space of another key/);
  });
});

describe('a folder as the space (the command line hands Node fs in the shape of a directory handle)', () => {
  test('Check passes, two devices sync through it, and a folder that is gone is named', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { fsDirectory } = await import('../../src/cli/fs-directory.ts');
    const { createEngine, folderTransport } = await import('../../src/sync/index.ts');
    const { memoryLocal, memoryState } = await import('./memory-local.ts');
    const transport = folderTransport(fsDirectory(mkdtempSync(join(tmpdir(), 'rho-space-'))), 'space');
    expect(await codeOf(transport)).toBe('ok');
    await createSpace(transport, keys, 1);
    const [a, b] = [memoryLocal(), memoryLocal()];
    const engine = (local: typeof a) => createEngine({ transport, keys, local, state: memoryState(), deviceName: 'd' });
    a.write('s', 's', '{"type":"session","id":"s"}\n');
    await engine(a).round();
    const eb = engine(b);
    expect((await eb.round()).agreed).toBe(true);
    expect(new TextDecoder().decode(b.copies.get('s')!.bytes)).toBe('{"type":"session","id":"s"}\n');
    expect(
      (
        await folderTransport(fsDirectory(join(tmpdir(), 'no-such-dir-rho')), 'gone')
          .list('rs1/')
          .catch((e) => e)
      ).code,
    ).toBe('no-such-bucket');
  });
});
