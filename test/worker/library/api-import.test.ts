// The library API importing files: outcomes by bytes, rejected files, gzip, folders and blobs.
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { once } from '../../../src/storage/chunks.ts';
import { bytes, headerLine, sessionText } from '../../storage/helpers.ts';
import { file, setup, text } from './api-setup.ts';
import { createApi } from '../../../src/worker/api.ts';

describe('import outcomes by bytes', () => {
  test('added, unchanged, updated (stored is a prefix), kept-newer (new is a prefix), variant (diverged)', async () => {
    const { api } = setup();
    const two = sessionText('s1', 2);
    const three = sessionText('s1', 3);
    expect((await api.importFiles({ files: [file('a.jsonl', two)] })).items).toEqual([{ name: 'a.jsonl', outcome: 'added', id: 's1', problems: 0 }]);
    expect((await api.importFiles({ files: [file('a.jsonl', two)] })).items[0].outcome).toBe('unchanged');
    expect((await api.importFiles({ files: [file('b.jsonl', three)] })).items[0]).toMatchObject({ outcome: 'updated', id: 's1' });
    expect(await text((await api.exportSession({ id: 's1' })).blob)).toBe(three);
    expect((await api.importFiles({ files: [file('a.jsonl', two)] })).items[0]).toMatchObject({ outcome: 'kept-newer', id: 's1' });
    const other = sessionText('s1', 2, { prefix: 'f' });
    expect((await api.importFiles({ files: [file('c.jsonl', other)] })).items[0]).toMatchObject({ outcome: 'variant', id: 's1~2' });
    // The same variant again is recognised as such, and its extension updates it, not the original.
    expect((await api.importFiles({ files: [file('c.jsonl', other)] })).items[0]).toMatchObject({ outcome: 'unchanged', id: 's1~2' });
    const otherLonger = sessionText('s1', 3, { prefix: 'f' });
    expect((await api.importFiles({ files: [file('c.jsonl', otherLonger)] })).items[0]).toMatchObject({ outcome: 'updated', id: 's1~2' });
    const list = await api.listSessions({});
    expect(list.map((s) => [s.id, s.variantOf]).sort()).toEqual([
      ['s1', undefined],
      ['s1~2', 's1'],
    ]);
    expect(await text((await api.exportSession({ id: 's1' })).blob)).toBe(three);
    expect(await text((await api.exportSession({ id: 's1~2' })).blob)).toBe(otherLonger);
  });

  test("another tab's import not yet in the index is still seen: diverged bytes become a variant, never an overwrite", async () => {
    const { createMemoryDisk } = await import('../../../src/storage/memory-disk.ts');
    const { createStore } = await import('../../../src/storage/store.ts');
    const disk = createMemoryDisk();
    const deps = { now: () => new Date(0), randomId: () => 'abcdef01' };
    // Two tabs' stores on one disk; neither writes its index records before the other imports.
    const storeA = createStore(disk, { flushDelay: 60_000 });
    const storeB = createStore(disk, { flushDelay: 60_000 });
    const tabB = createApi({ store: storeB, ...deps });
    const mine = sessionText('same', 2);
    const theirs = sessionText('same', 2, { prefix: 'f' });
    await storeB.list();
    await storeA.create('same', once(bytes(mine)));
    const onDisk = (p: string) => (disk.files.has(p) ? new TextDecoder().decode(disk.files.get(p)!.bytes) : '');
    expect(onDisk('index.json').includes('"same"') || onDisk('index.log').includes('"same"')).toBe(false);
    expect((await tabB.importFiles({ files: [file('b.jsonl', theirs)] })).items[0]).toMatchObject({ outcome: 'variant', id: 'same~2' });
    expect(await text(await storeB.readFile('same'))).toBe(mine);
    expect(await text(await storeB.readFile('same~2'))).toBe(theirs);
  });

  test('a torn tail completed by the other device is an update to exactly the new bytes', async () => {
    const { api } = setup();
    const full = sessionText('s1', 2);
    const torn = full.slice(0, full.length - 20);
    await api.importFiles({ files: [file('a.jsonl', torn)] });
    expect((await api.importFiles({ files: [file('a.jsonl', full)] })).items[0].outcome).toBe('updated');
    expect(await text((await api.exportSession({ id: 's1' })).blob)).toBe(full);
  });

  test('rejected with reason and line; recognised by content, not by name', async () => {
    const { api } = setup();
    const report = await api.importFiles({
      files: [
        file('notes.jsonl', '{"type":"message","id":"x"}\n'),
        file('empty.jsonl', ''),
        file('garbage.jsonl', 'hello world\n'),
        file('session.txt', sessionText('t1')),
        file('README', sessionText('t2')),
      ],
    });
    expect(report.items).toEqual([
      { name: 'notes.jsonl', outcome: 'rejected', reason: 'not a session: line 1 is not a session header', line: 1 },
      { name: 'empty.jsonl', outcome: 'rejected', reason: 'not a session: the file is empty' },
      { name: 'garbage.jsonl', outcome: 'rejected', reason: 'not a session: line 1 is not JSON', line: 1 },
      { name: 'session.txt', outcome: 'added', id: 't1', problems: 0 },
      { name: 'README', outcome: 'added', id: 't2', problems: 0 },
    ]);
  });

  test('omp title slot first line, then header', async () => {
    const { api } = setup();
    const slot = JSON.stringify({ type: 'title', v: 1, title: 'From the slot', source: 'user', updatedAt: '2026-01-01T00:00:00.000Z', pad: '' });
    const report = await api.importFiles({ files: [file('omp.jsonl', slot + '\n' + sessionText('o1'))] });
    expect(report.items[0]).toMatchObject({ outcome: 'added', id: 'o1' });
    expect((await api.listSessions({}))[0].title).toBe('From the slot');
  });

  test('importText (paste)', async () => {
    const { api } = setup();
    expect((await api.importText({ text: sessionText('p1') })).items[0]).toMatchObject({ name: 'pasted text', outcome: 'added', id: 'p1' });
  });

  test('.jsonl.gz is decompressed; a broken gzip is rejected', async () => {
    const { api } = setup();
    const gz = gzipSync(Buffer.from(sessionText('g1', 3)));
    const report = await api.importFiles({ files: [file('g.jsonl.gz', new Uint8Array(gz)), file('bad.gz', new Uint8Array([0x1f, 0x8b, 1, 2, 3]))] });
    expect(report.items[0]).toMatchObject({ name: 'g.jsonl', outcome: 'added', id: 'g1' });
    expect(report.items[1]).toMatchObject({ name: 'bad.gz', outcome: 'rejected' });
    expect(await text((await api.exportSession({ id: 'g1' })).blob)).toBe(sessionText('g1', 3));
  });

  test('folders: pi per-project folders, omp subagent folders, blobs referenced by the sessions', async () => {
    const { api, store } = setup();
    const png = bytes('\u0089PNG fake image bytes');
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(png).digest('hex');
    const unused = bytes('unreferenced');
    const shaUnused = createHash('sha256').update(unused).digest('hex');
    const withImage =
      [
        headerLine('omp1'),
        JSON.stringify({
          type: 'message',
          id: 'a1',
          parentId: null,
          timestamp: 't',
          message: {
            role: 'user',
            content: [
              { type: 'text', text: 'see' },
              { type: 'image', data: `blob:sha256:${sha}`, mimeType: 'image/png' },
            ],
            timestamp: 1,
          },
        }),
      ].join('\n') + '\n';
    const files = [
      { path: 'sessions/--home-u-proj--/2026-01-01T00-00-00-000Z_p1.jsonl', file: file('x', sessionText('p1')) },
      { path: 'sessions/-code-proj/2026-01-01_omp1.jsonl', file: file('y', withImage) },
      { path: 'sessions/-code-proj/2026-01-01_omp1/sub-agent.jsonl', file: file('z', sessionText('sub1')) },
      { path: 'sessions/-code-proj/2026-01-01_omp1/draft.txt', file: file('d', 'a draft') },
      { path: 'blobs/' + sha, file: file(sha, png) },
      { path: 'blobs/' + sha + '.png', file: file(sha + '.png', png) },
      { path: 'blobs/' + shaUnused, file: file(shaUnused, unused) },
    ];
    const report = await api.importFiles({ files, source: 'drop' });
    expect(report.items.map((i) => [i.name, i.outcome])).toEqual([
      ['sessions/--home-u-proj--/2026-01-01T00-00-00-000Z_p1.jsonl', 'added'],
      ['sessions/-code-proj/2026-01-01_omp1.jsonl', 'added'],
      ['sessions/-code-proj/2026-01-01_omp1/sub-agent.jsonl', 'added'],
      ['sessions/-code-proj/2026-01-01_omp1/draft.txt', 'rejected'],
    ]);
    expect(await (await store.readBlob(sha))!.text()).toBe(new TextDecoder().decode(png));
    expect(await store.readBlob(shaUnused)).toBeNull();
  });

  test('a blob whose bytes do not match its name is refused', async () => {
    const { api, store } = setup();
    const sha = 'ee'.repeat(32);
    const s =
      headerLine('b1') +
      '\n' +
      JSON.stringify({
        type: 'message',
        id: 'a',
        parentId: null,
        timestamp: 't',
        message: { role: 'user', content: [{ type: 'image', data: `blob:sha256:${sha}`, mimeType: 'image/png' }], timestamp: 1 },
      }) +
      '\n';
    const report = await api.importFiles({
      files: [
        { path: 's.jsonl', file: file('s', s) },
        { path: `blobs/${sha}`, file: file(sha, 'lies') },
      ],
    });
    expect(report.items[1]).toMatchObject({ outcome: 'rejected', reason: expect.stringContaining('sha256') });
    expect(await store.readBlob(sha)).toBeNull();
  });
});
