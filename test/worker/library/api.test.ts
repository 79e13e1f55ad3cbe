import { gzipSync } from 'node:zlib';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { parse } from '../../../src/core/index.ts';
import { once } from '../../../src/storage/chunks.ts';
import { createApi } from '../../../src/worker/api.ts';
import type { CallContext, Progress } from '../../../src/worker/protocol.ts';
import { toApiError } from '../../../src/worker/protocol.ts';
import { bytes, headerLine, memoryStore, messageLine, sessionText } from '../../storage/helpers.ts';

function setup() {
  const { disk, store } = memoryStore({ now: () => 1_700_000_000_000 });
  let n = 0;
  const api = createApi({ store, now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => (++n).toString(16).padStart(8, '0') });
  return { api, store, disk };
}

const file = (name: string, content: string | Uint8Array) => new File([content as BlobPart], name);
const text = async (blob: Blob) => new TextDecoder().decode(new Uint8Array(await blob.arrayBuffer()));

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

describe('bundles and export', () => {
  test('export bundle → import on another device restores every session byte for byte, with blobs', async () => {
    const a = setup();
    const png = bytes('image!');
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(png).digest('hex');
    const withImage =
      headerLine('img', { cwd: '/home/u/other' }) +
      '\n' +
      JSON.stringify({
        type: 'message',
        id: 'a1',
        parentId: null,
        timestamp: 't',
        message: { role: 'user', content: [{ type: 'image', data: `blob:sha256:${sha}`, mimeType: 'image/png' }], timestamp: 1 },
      }) +
      '\n';
    await a.api.importFiles({
      files: [
        file('1.jsonl', sessionText('one')),
        file('2.jsonl', sessionText('two', 5)),
        { path: 'x/img.jsonl', file: file('img.jsonl', withImage) },
        { path: `x/blobs/${sha}`, file: file(sha, png) },
      ],
    });
    const progress: Progress[] = [];
    const ctx: CallContext = { signal: new AbortController().signal, progress: (p) => progress.push(p) };
    const bundle = await a.api.exportBundle({}, ctx);
    expect(bundle.name).toBe('rho-sessions-2026-03-04.zip');
    expect(progress.at(-1)).toMatchObject({ done: progress.at(-1)!.total });
    const names = Object.keys(unzipSync(new Uint8Array(await bundle.blob.arrayBuffer()))).sort();
    expect(names).toEqual([
      `blobs/${sha}`,
      'sessions/--home-u-other--/2026-01-02T03-04-05-678Z_img.jsonl',
      'sessions/--home-u-proj--/2026-01-02T03-04-05-678Z_one.jsonl',
      'sessions/--home-u-proj--/2026-01-02T03-04-05-678Z_two.jsonl',
    ]);

    const b = setup();
    const report = await b.api.importFiles({ files: [file(bundle.name, new Uint8Array(await bundle.blob.arrayBuffer()))] });
    expect(report.items.map((i) => i.outcome)).toEqual(['added', 'added', 'added']);
    for (const id of ['one', 'two', 'img']) {
      expect(await text((await b.api.exportSession({ id })).blob)).toBe(await text((await a.api.exportSession({ id })).blob));
    }
    expect(await (await b.store.readBlob(sha))!.text()).toBe('image!');
    // Importing the same bundle again changes nothing.
    const again = await b.api.importFiles({ files: [file(bundle.name, new Uint8Array(await bundle.blob.arrayBuffer()))] });
    expect(again.items.map((i) => i.outcome)).toEqual(['unchanged', 'unchanged', 'unchanged']);
  });

  test('zip entries with hostile paths are only names; nested gz in zip is read', async () => {
    const { api, disk } = setup();
    const zip = zipSync({
      '../../etc/evil.jsonl': strToU8(sessionText('evil')),
      'C:\\Users\\me\\s.jsonl.gz': new Uint8Array(gzipSync(Buffer.from(sessionText('gzz')))),
      'dir/': new Uint8Array(0),
    });
    const report = await api.importFiles({ files: [file('b.zip', zip)] });
    expect(report.items).toEqual([
      { name: 'b.zip/etc/evil.jsonl', outcome: 'added', id: 'evil', problems: 0, title: 'question 0 for evil' },
      { name: 'b.zip/Users/me/s.jsonl', outcome: 'added', id: 'gzz', problems: 0, title: 'question 0 for gzz' },
    ]);
    // Only the sessions and the library index (sessions this small keep no envelope index): nothing where the paths point.
    expect([...disk.files.keys()].filter((k) => k !== 'index.json' && k !== 'index.log').sort()).toEqual(['sessions/evil.jsonl', 'sessions/gzz.jsonl']);
  });

  test('exportBranch: header and the active branch only, original line bytes', async () => {
    const { api } = setup();
    const lines = [
      headerLine('br'),
      messageLine('a1', null, 'user', 'q'),
      messageLine('a2', 'a1', 'assistant', 'old answer'),
      messageLine('a3', 'a1', 'assistant', 'new answer'),
    ];
    await api.importFiles({ files: [file('br.jsonl', lines.join('\n') + '\n')] });
    expect(await text((await api.exportBranch({ id: 'br' })).blob)).toBe([lines[0], lines[1], lines[3]].join('\n') + '\n');
    expect(await text((await api.exportBranch({ id: 'br', leafId: 'a2' })).blob)).toBe([lines[0], lines[1], lines[2]].join('\n') + '\n');
    expect(toApiError(await api.exportBranch({ id: 'br', leafId: 'nope' }).catch((x) => x))).toMatchObject({ code: 'not-found' });
  });

  test('exportBranch counts lines as the scan does: blank lines, a title slot, CRLF and a multi-byte line spanning chunks', async () => {
    const { api } = setup();
    const slot = JSON.stringify({ type: 'title', v: 1, title: 'T', updatedAt: 'x', pad: '' });
    const long = messageLine('a2', 'a1', 'assistant', '✓'.repeat(3 * 1024 * 1024));
    const lines = [slot, '', headerLine('bl') + '\r', '   ', messageLine('a1', null, 'user', 'q'), '', long, messageLine('a3', 'a2', 'user', 'last')];
    await api.importFiles({ files: [file('bl.jsonl', lines.join('\n') + '\n')] });
    const out = await text((await api.exportBranch({ id: 'bl' })).blob);
    expect(out).toBe([lines[2], lines[4], lines[6], lines[7]].join('\n') + '\n');
  });

  test('forkBranch: a new session (new id, parentSession) with that branch', async () => {
    const { api } = setup();
    const lines = [
      headerLine('src'),
      messageLine('a1', null, 'user', 'q'),
      messageLine('a2', 'a1', 'assistant', 'old'),
      messageLine('a3', 'a1', 'assistant', 'new'),
    ];
    await api.importFiles({ files: [file('src.jsonl', lines.join('\n') + '\n')] });
    const fork = await api.forkBranch({ id: 'src', leafId: 'a2' });
    expect(fork.id).not.toBe('src');
    expect(fork.entryCount).toBe(2);
    const forked = parse(await text((await api.exportSession({ id: fork.id })).blob));
    expect(forked.header).toMatchObject({ id: fork.id, parentSession: 'src', cwd: '/home/u/proj', version: 3 });
    expect(forked.entries.map((e) => e.id)).toEqual(['a1', 'a2']);
    expect(forked.problems).toEqual([]);
  });
});

describe('library writes', () => {
  test('rename appends session_info + title_change after the leaf; the file stays a valid session', async () => {
    const { api } = setup();
    await api.importFiles({ files: [file('r.jsonl', sessionText('r1'))] });
    const s = await api.renameSession({ id: 'r1', title: '  New name ' });
    expect(s.title).toBe('New name');
    const after = await text((await api.exportSession({ id: 'r1' })).blob);
    expect(after.startsWith(sessionText('r1'))).toBe(true);
    const parsed = parse(after);
    expect(parsed.problems).toEqual([]);
    const [info, change] = parsed.entries.slice(-2);
    expect(info).toMatchObject({ type: 'session_info', name: 'New name', parentId: 'e0000003' });
    expect(change).toMatchObject({ type: 'title_change', title: 'New name', source: 'user', parentId: info.id });
  });

  test('rename of an omp file rewrites its 256-byte title slot and keeps everything else', async () => {
    const { api } = setup();
    const slot = JSON.stringify({ type: 'title', v: 1, title: 'Old', source: 'auto', updatedAt: '2026-01-01T00:00:00.000Z', pad: '' });
    const padded = JSON.stringify({
      type: 'title',
      v: 1,
      title: 'Old',
      source: 'auto',
      updatedAt: '2026-01-01T00:00:00.000Z',
      pad: ' '.repeat(255 - slot.length),
    });
    const body = sessionText('omp2');
    await api.importFiles({ files: [file('o.jsonl', padded + '\n' + body)] });
    const s = await api.renameSession({ id: 'omp2', title: 'Ünïcode title ✓' });
    expect(s.title).toBe('Ünïcode title ✓');
    const after = new Uint8Array(await (await api.exportSession({ id: 'omp2' })).blob.arrayBuffer());
    expect(after[255]).toBe(10);
    expect(JSON.parse(new TextDecoder().decode(after.subarray(0, 255)))).toMatchObject({ type: 'title', v: 1, title: 'Ünïcode title ✓', source: 'user' });
    expect(new TextDecoder().decode(after.subarray(256)).startsWith(body)).toBe(true);
  });

  test('labelEntry appends a label; an unknown entry is not-found', async () => {
    const { api } = setup();
    await api.importFiles({ files: [file('l.jsonl', sessionText('l1'))] });
    await api.labelEntry({ id: 'l1', entryId: 'e0000001', label: 'important' });
    const parsed = parse(await text((await api.exportSession({ id: 'l1' })).blob));
    expect(parsed.entries.at(-1)).toMatchObject({ type: 'label', targetId: 'e0000001', label: 'important' });
    const e = await api.labelEntry({ id: 'l1', entryId: 'nope', label: 'x' }).catch((x) => x);
    expect(toApiError(e)).toMatchObject({ code: 'not-found' });
  });

  test('appending to a v1 file is refused as unsupported', async () => {
    const { api } = setup();
    const v1 =
      JSON.stringify({ type: 'session', id: 'v1s', timestamp: 't', cwd: '' }) +
      '\n' +
      JSON.stringify({ type: 'message', timestamp: 't', message: { role: 'user', content: 'hi', timestamp: 1 } }) +
      '\n';
    await api.importFiles({ files: [file('v1.jsonl', v1)] });
    const e = await api.renameSession({ id: 'v1s', title: 'x' }).catch((x) => x);
    expect(toApiError(e)).toMatchObject({ code: 'unsupported' });
    expect(await text((await api.exportSession({ id: 'v1s' })).blob)).toBe(v1);
  });

  test('delete and undo', async () => {
    const { api } = setup();
    await api.importFiles({ files: [file('d.jsonl', sessionText('d1'))] });
    const { undoToken } = await api.deleteSession({ id: 'd1' });
    expect(await api.listSessions({})).toEqual([]);
    expect(toApiError(await api.exportSession({ id: 'd1' }).catch((x) => x))).toMatchObject({ code: 'not-found' });
    await api.undoDelete({ undoToken });
    expect((await api.listSessions({})).map((s) => s.id)).toEqual(['d1']);
  });

  test('listChanges gives the named sessions still stored and every id in the order listSessions gives', async () => {
    const { api } = setup();
    await api.importFiles({ files: [file('1.jsonl', sessionText('s1')), file('2.jsonl', sessionText('s2')), file('3.jsonl', sessionText('s3'))] });
    await api.renameSession({ id: 's2', title: 'Renamed' });
    await api.deleteSession({ id: 's3' });
    const list = await api.listSessions({});
    const changes = await api.listChanges({ ids: ['s2', 's3'] });
    expect(changes.order).toEqual(list.map((s) => s.id));
    expect(changes.order).not.toContain('s3');
    expect(changes.changed).toEqual(list.filter((s) => s.id === 's2'));
    expect(changes.changed[0].title).toBe('Renamed');
  });

  test('search finds titles and message text, with the entry id and the words marked', async () => {
    const { api } = setup();
    await api.importFiles({ files: [file('1.jsonl', sessionText('s1', 3)), file('2.jsonl', sessionText('s2', 1))] });
    await api.renameSession({ id: 's2', title: 'Deploy Notes' });
    const titled = await api.search({ query: 'deploy' });
    expect(titled.sessions.map((s) => [s.id, s.title])).toEqual([['s2', 'Deploy Notes']]);
    expect(titled.sessions[0].titleParts).toEqual([{ text: 'Deploy', mark: true }, { text: ' Notes' }]);
    const textHits = await api.search({ query: 'QUESTION 2 for s1' });
    expect(textHits.sessions.map((s) => [s.id, s.hits.map((h) => [h.entryId, h.parts.map((p) => (p.mark ? `[${p.text}]` : p.text)).join('')])])).toEqual([
      ['s1', [['e0000004', '[question] [2] [for] [s1]']]],
    ]);
    // Field names of the JSON are not text.
    expect((await api.search({ query: 'role' })).sessions).toEqual([]);
  });

  test('listSessions filters by query; storageInfo says nothing is kept in memory', async () => {
    const { api } = setup();
    await api.importFiles({ files: [file('1.jsonl', sessionText('s1')), file('2.jsonl', sessionText('s2'))] });
    expect((await api.listSessions({ query: 'FOR S2' })).map((s) => s.id)).toEqual(['s2']);
    expect(await api.storageInfo({})).toMatchObject({ opfs: false, persistent: false });
  });
});

describe('progress and cancel', () => {
  test('progress reports bytes; an aborted import stops and keeps what was done', async () => {
    const { api } = setup();
    const big = sessionText('big', 3000);
    const seen: Progress[] = [];
    const report = await api.importFiles({ files: [file('big.jsonl', big)] }, { signal: new AbortController().signal, progress: (p) => seen.push(p) });
    expect(report.items[0].outcome).toBe('added');
    expect(seen.at(-1)).toEqual({ done: big.length, total: big.length, label: 'big.jsonl' });

    const controller = new AbortController();
    controller.abort();
    const e = await api.importFiles({ files: [file('x.jsonl', sessionText('x'))] }, { signal: controller.signal, progress: () => undefined }).catch((x) => x);
    expect(toApiError(e).code).toBe('aborted');
    expect((await api.listSessions({})).map((s) => s.id)).toEqual(['big']);
  });

  // In-process the progress callback runs inside the import, so the abort lands exactly after the
  // first chunk reached the disk, whatever the machine's speed.
  test('a cancel after the first chunk was written leaves no partial file and an unchanged list', async () => {
    const { api, disk } = setup();
    await api.importFiles({ files: [file('small.jsonl', sessionText('small'))] });
    const big = file('big.jsonl', sessionText('big', 30000));
    expect(big.size).toBeGreaterThan(3 * 4 * 1024 * 1024);
    const before = [...disk.files.keys()].sort();
    const controller = new AbortController();
    const seen: Progress[] = [];
    const progress = (p: Progress) => {
      seen.push(p);
      if (p.done > 0 && p.done < p.total) controller.abort();
    };
    const e = await api.importFiles({ files: [big] }, { signal: controller.signal, progress }).catch((x) => x);
    expect(toApiError(e).code).toBe('aborted');
    expect(seen.filter((p) => p.done > 0 && p.done < p.total)).toHaveLength(1);
    expect([...disk.files.keys()].sort()).toEqual(before);
    expect((await api.listSessions({})).map((s) => s.id)).toEqual(['small']);
  });

  test('every file of an import is reported as it starts, however fast the import is', async () => {
    const { api } = setup();
    const names = ['a', 'b', 'c', 'd'].map((n) => `${n}.jsonl`);
    const seen: string[] = [];
    await api.importFiles(
      { files: names.map((n, i) => file(n, sessionText(`s${i}`))) },
      { signal: new AbortController().signal, progress: (p) => seen.push(p.label ?? '') },
    );
    expect([...new Set(seen)]).toEqual(names);
  });
});
