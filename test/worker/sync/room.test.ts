// The worker's sync room over two libraries (two devices) and a real S3 server on loopback
// (s3rver): setting up, pairing by link, appends each way, divergence kept as a variant, a
// deletion elsewhere moved to the trash with undo, and the page never given a secret.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApi } from '../../../src/worker/api.ts';
import { memoryKeeping } from '../../../src/worker/sync/settings.ts';
import { type S3Server, startS3 } from '../../sync/servers.ts';
import { memoryStore, messageLine, sessionText } from '../../storage/helpers.ts';

let s3: S3Server;
// One pair of devices for most tests (pairing links cost an scrypt each way); each test its own sessions.
let shared: Awaited<ReturnType<typeof paired>>;
beforeAll(async () => {
  s3 = await startS3();
  shared = await paired('one/');
}, 60_000);
afterAll(async () => {
  await s3?.stop();
});

let n = 0;
/** A device; `memoryReason` makes it one whose worker could not open OPFS (its library is held in memory). */
function device(memoryReason?: string, keeping = memoryKeeping()) {
  const { store } = memoryStore();
  const api = createApi({
    store,
    now: () => new Date(),
    randomId: () => (++n).toString(16).padStart(8, '0'),
    syncKeeping: keeping,
    syncLock: `test-${++n}`,
    ...(memoryReason ? { memoryReason } : {}),
  });
  return { api, store, keeping };
}

const file = (name: string, text: string) => new File([text], name);
const text = async (blob: Blob) => new TextDecoder().decode(new Uint8Array(await blob.arrayBuffer()));
const space = (prefix: string) => s3.settings(prefix);

async function paired(prefix: string) {
  const a = device();
  const b = device();
  expect(await a.api.syncSetup({ space: space(prefix), deviceName: 'laptop' })).toEqual({ ok: true, space: 'ours' });
  const { link, code } = await a.api.syncPairingLink({ app: 'http://localhost:4173/' });
  const view = await b.api.syncOpenLink({ link, code });
  expect(view).toMatchObject({ from: 'laptop', space: { kind: 's3', fields: { bucket: s3.bucket, prefix } } });
  expect(await b.api.syncPair({ deviceName: 'phone' })).toMatchObject({ ok: true, space: 'ours' });
  return { a, b };
}

describe('the sync room', () => {
  test('a session added on one device reaches the other; appends on either side come back; the status lists both devices', async () => {
    const { a, b } = shared;
    const two = sessionText('s1', 2);
    await a.api.importFiles({ files: [file('s1.jsonl', two)] });
    await a.api.syncNow({});
    await b.api.syncNow({});
    expect(await text((await b.api.exportSession({ id: 's1' })).blob)).toBe(two);
    // The phone appends (an import of the longer file), the laptop receives the bytes.
    const three = `${two}${messageLine('e0000004', 'e0000003', 'user', 'from the phone')}\n`;
    expect((await b.api.importFiles({ files: [file('s1.jsonl', three)] })).items[0].outcome).toBe('updated');
    await b.api.syncNow({});
    const status = await a.api.syncNow({});
    expect(await text((await a.api.exportSession({ id: 's1' })).blob)).toBe(three);
    expect(status.applied).toEqual([{ key: 's1', copy: 's1', outcome: 'appended' }]);
    expect(status.devices.map((d) => d.name).sort()).toEqual(['laptop', 'phone']);
    expect(status.devices.find((d) => d.self)?.name).toBe('laptop');
    expect(status.lastSync).not.toBeNull();
    expect(status.agreed).toBe(true);
  });

  test('the long poll leaves out the changes of a round the page has taken in, and sends those of a later round', async () => {
    const { a, b } = shared;
    await a.api.importFiles({ files: [file('w1.jsonl', sessionText('w1', 1))] });
    await a.api.syncNow({});
    const round = await b.api.syncNow({});
    expect(round.applied).toContainEqual({ key: 'w1', copy: 'w1', outcome: 'added' });
    // A page that has not taken that round in gets its changes; one that has, or one that starts (null), does not.
    const before = round.version - 1;
    expect((await b.api.syncWatch({ after: before, seenRound: round.appliedRound - 1 })).applied).toEqual(round.applied);
    expect((await b.api.syncWatch({ after: before, seenRound: round.appliedRound })).applied).toEqual([]);
    expect((await b.api.syncWatch({ after: before, seenRound: null })).applied).toEqual([]);
    expect((await b.api.syncWatch({ after: before })).applied).toEqual(round.applied);
    expect((await b.api.syncWatch({ after: before, seenRound: round.appliedRound })).appliedRound).toBe(round.appliedRound);
  });

  test('both append to the same session offline: each keeps its own and gets the other as a variant, every byte kept', async () => {
    const { a, b } = shared;
    const base = sessionText('s2', 1);
    await a.api.importFiles({ files: [file('s2.jsonl', base)] });
    await a.api.syncNow({});
    await b.api.syncNow({});
    const fromA = `${base}${messageLine('a0000001', 'e0000001', 'user', 'laptop says')}\n`;
    const fromB = `${base}${messageLine('b0000001', 'e0000001', 'user', 'phone says')}\n`;
    await a.api.importFiles({ files: [file('s2.jsonl', fromA)] });
    await b.api.importFiles({ files: [file('s2.jsonl', fromB)] });
    await a.api.syncNow({});
    await b.api.syncNow({});
    await a.api.syncNow({});
    for (const d of [a, b]) {
      const texts = await Promise.all(
        (await d.api.listSessions({})).filter((s) => s.id.startsWith('s2')).map(async (s) => text((await d.api.exportSession({ id: s.id })).blob)),
      );
      expect(texts.sort()).toEqual([fromA, fromB].sort());
    }
    expect(await text((await a.api.exportSession({ id: 's2' })).blob)).toBe(fromA);
    expect(await text((await b.api.exportSession({ id: 's2' })).blob)).toBe(fromB);
  });

  test('the status and the pairing view carry no secret, and the space holds no plaintext', async () => {
    const { a, b } = shared;
    await a.api.importFiles({ files: [file('s3.jsonl', sessionText('s3-visible-id', 2))] });
    await a.api.syncNow({});
    const seen = JSON.stringify([await a.api.syncStatus({}), await b.api.syncStatus({})]);
    expect(seen).not.toContain('AGE-SECRET-KEY');
    expect(seen).not.toContain('secretAccessKey');
    const { readdirSync, readFileSync, statSync } = await import('node:fs');
    const { join } = await import('node:path');
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
    const objects = walk(s3.directory).filter((f) => f.includes('one'));
    expect(objects.length).toBeGreaterThan(1);
    for (const f of objects) expect(readFileSync(f).toString('latin1')).not.toContain('s3-visible-id');
  });

  test('a deletion on one device moves the same version to the trash on the other, with undo there', async () => {
    const { a, b } = shared;
    const six = sessionText('s6', 2);
    await a.api.importFiles({ files: [file('s6.jsonl', six)] });
    await a.api.syncNow({});
    await b.api.syncNow({});
    expect((await b.api.listSessions({})).some((s) => s.id === 's6')).toBe(true);
    await a.api.deleteSession({ id: 's6' });
    await a.api.syncNow({});
    const status = await b.api.syncNow({});
    expect(status.applied).toContainEqual({ key: 's6', copy: 's6', outcome: 'trashed' });
    expect((await b.api.listSessions({})).some((s) => s.id === 's6')).toBe(false);
    const undo = status.trashed.find((t) => t.id === 's6');
    expect(undo?.title).toBe('question 0 for s6');
    await b.api.syncUndoTrash({ undoToken: undo?.undoToken ?? '' });
    expect(await text((await b.api.exportSession({ id: 's6' })).blob)).toBe(six);
    // The next round does not trash it again.
    await b.api.syncNow({});
    expect((await b.api.listSessions({})).some((s) => s.id === 's6')).toBe(true);
  });

  test('a wrong code does not open the link, and says so', async () => {
    const { link } = await shared.a.api.syncPairingLink({ app: 'http://localhost:4173/' });
    await expect(device().api.syncOpenLink({ link, code: 'AAAAA-AAAAA' })).rejects.toThrow('This code does not open the link');
  });

  test('Check tells a wrong key and a missing bucket apart, each with its fix', async () => {
    const d = device();
    const wrongKey = await d.api.syncCheck({ space: { ...space('x/'), accessKeyId: 'NOT-A-KEY' } });
    expect(wrongKey).toMatchObject({ ok: false, error: { code: 'auth' } });
    const noBucket = await d.api.syncCheck({ space: { ...space('x/'), bucket: 'no-such-bucket-here' } });
    expect(noBucket).toMatchObject({ ok: false, error: { code: 'no-such-bucket', provider: 'NoSuchBucket' } });
    expect(noBucket.error?.message).toContain('check its name');
  });

  test('leaving keeps the library and stops syncing; moving to a new space keeps syncing under a new key', async () => {
    const { a, b } = await paired('five/');
    await a.api.importFiles({ files: [file('s5.jsonl', sessionText('s5', 1))] });
    await a.api.syncNow({});
    await b.api.syncNow({});
    const moved = await a.api.syncMoveSpace({});
    expect(moved).toEqual({ ok: true, space: 'ours' });
    const after = await a.api.syncNow({});
    expect(after.space?.fields.prefix).toMatch(/^five\/rho-[0-9a-f]{8}\/$/);
    expect(after.devices.map((d) => d.name)).toEqual(['laptop']);
    const left = await b.api.syncLeave({});
    expect(left.configured).toBe(false);
    expect((await b.api.listSessions({})).map((s) => s.id)).toEqual(['s5']);
  });

  test('a library held in memory joins no space and runs no round: each says why, and nothing reaches the library', async () => {
    const { a } = shared;
    const why = 'the private file system refused to open (InvalidStateError: no storage here)';
    const phone = device(why);
    expect((await phone.api.storageInfo({})).memoryReason).toBe(why);
    const setup = await phone.api.syncSetup({ space: space('memory/'), deviceName: 'phone' });
    expect(setup).toMatchObject({ ok: false, error: { code: 'local' } });
    expect(setup.error?.message).toContain(why);
    expect(setup.error?.message).toContain('would be lost');
    // Nothing was created at that place.
    expect((await phone.api.syncCheck({ space: space('memory/') })).space).toBe('none');
    await a.api.importFiles({ files: [file('mem.jsonl', sessionText('mem', 1))] });
    await a.api.syncNow({});
    const { link, code } = await a.api.syncPairingLink({ app: 'http://localhost:4173/' });
    await phone.api.syncOpenLink({ link, code });
    const pair = await phone.api.syncPair({ deviceName: 'phone' });
    expect(pair).toMatchObject({ ok: false, error: { code: 'local' } });
    expect(await phone.keeping.getSettings()).toBeUndefined();
    // Settings kept from before (a worker that fell back on a later start): rounds refuse too.
    const kept = memoryKeeping();
    await kept.setSettings({ ...(await a.keeping.getSettings())!, deviceName: 'phone' });
    const held = device(why, kept);
    const status = await held.api.syncNow({});
    expect(status).toMatchObject({ state: 'error', error: { code: 'local' } });
    expect(status.error?.message).toContain(why);
    expect(await held.api.listSessions({})).toEqual([]);
  });
});
