// Search over sessions another device sent, in the worker: two libraries (two devices) paired
// through a real S3 server on loopback (s3rver). A session a sync round adds is parsed once, as an
// import's is: its part of the search index is written by the round, so the search that finds it
// reads nothing of the session's file again; a word appended on the other device is found too.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { SessionStore } from '../../../src/storage/types.ts';
import { createApi } from '../../../src/worker/api.ts';
import { memoryKeeping } from '../../../src/worker/sync/settings.ts';
import { type S3Server, startS3 } from '../../sync/servers.ts';
import { memoryStore, messageLine, sessionText } from '../../storage/helpers.ts';

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3();
}, 60_000);
afterAll(async () => {
  await s3?.stop();
});

let n = 0;
/** A device whose store writes down every read of a session's file (`readFile`, by id). */
function device() {
  const { store } = memoryStore();
  const reads: string[] = [];
  const watched: SessionStore = {
    ...store,
    readFile(id) {
      reads.push(id);
      return store.readFile(id);
    },
  };
  const api = createApi({
    store: watched,
    now: () => new Date(),
    randomId: () => (++n).toString(16).padStart(8, '0'),
    syncKeeping: memoryKeeping(),
    syncLock: `search-test-${++n}`,
  });
  return { api, reads };
}

const file = (name: string, text: string) => new File([text], name);
const titles = (r: { sessions: { id: string }[] }) => r.sessions.map((s) => s.id);

test('a session received by sync is found by a word in it without its file being read again, and by a word appended on the other device', async () => {
  const a = device();
  const b = device();
  expect(await a.api.syncSetup({ space: s3.settings('search/'), deviceName: 'laptop' })).toEqual({ ok: true, space: 'ours' });
  const { link, code } = await a.api.syncPairingLink({ app: 'http://localhost:4173/' });
  await b.api.syncOpenLink({ link, code });
  expect(await b.api.syncPair({ deviceName: 'phone' })).toMatchObject({ ok: true, space: 'ours' });

  const one = `${sessionText('r1', 1)}${messageLine('e0000002', 'e0000001', 'user', 'check the marlinspike')}\n`;
  await a.api.importFiles({ files: [file('r1.jsonl', one)] });
  await a.api.syncNow({});
  expect((await b.api.syncNow({})).applied).toContainEqual({ key: 'r1', copy: 'r1', outcome: 'added' });
  expect(titles(await b.api.search({ query: 'marlinspike' }))).toEqual(['r1']);
  expect(b.reads.filter((id) => id === 'r1')).toEqual([]);

  const two = `${one}${messageLine('e0000003', 'e0000002', 'user', 'varnish the gunwale')}\n`;
  expect((await a.api.importFiles({ files: [file('r1.jsonl', two)] })).items[0].outcome).toBe('updated');
  await a.api.syncNow({});
  expect((await b.api.syncNow({})).applied).toContainEqual({ key: 'r1', copy: 'r1', outcome: 'appended' });
  expect(titles(await b.api.search({ query: 'gunwale' }))).toEqual(['r1']);
  expect(titles(await b.api.search({ query: 'marlinspike' }))).toEqual(['r1']);
}, 60_000);
