import { describe, expect, it } from 'vitest';
import { newIdentity, type SpaceSettings } from '../../../src/sync/index.ts';
import { createApi } from '../../../src/worker/api.ts';
import { memoryKeyStore } from '../../../src/worker/host/keys.ts';
import { memoryKeeping } from '../../../src/worker/sync/settings.ts';
import { memoryStore } from '../../storage/helpers.ts';

// Port 9 on loopback: nothing listens, so the space's requests fail at once and the test reaches nothing.
const space = {
  kind: 's3',
  endpoint: 'http://127.0.0.1:9',
  region: 'us-east-1',
  bucket: 'b',
  prefix: '',
  accessKeyId: 'AK',
  secretAccessKey: 'SK',
} as SpaceSettings;

describe("the sync space's settings and the origins the app may reach", () => {
  it('a stored space is reachable, and leaving it takes its origin off the list', async () => {
    const keeping = memoryKeeping();
    await keeping.setSettings({ space, identity: await newIdentity(), deviceName: 'phone' });
    const writes: string[][] = [];
    let written = () => undefined as unknown;
    const api = createApi({
      store: memoryStore().store,
      now: () => new Date('2026-03-04T05:06:07.000Z'),
      randomId: () => crypto.randomUUID().slice(0, 8),
      syncKeeping: keeping,
      modelKeys: memoryKeyStore(),
      connectOrigins: async (o) => {
        writes.push([...o]);
        written();
      },
    });
    if (writes.length === 0) await new Promise((r) => (written = r as () => undefined));
    expect(writes.at(-1)).toEqual(['http://127.0.0.1:9']);
    await api.syncLeave({});
    expect(await keeping.getSettings()).toBeUndefined();
    expect(writes.at(-1)).toEqual([]);
  });
});
