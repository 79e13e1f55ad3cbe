// The library API writing: rename, label, delete and undo, search and list, progress and cancel.
import { describe, expect, test } from 'vitest';
import { parse } from '../../../src/core/index.ts';
import type { Progress } from '../../../src/worker/protocol.ts';
import { toApiError } from '../../../src/worker/protocol.ts';
import { sessionText } from '../../storage/helpers.ts';
import { file, setup, text } from './api-setup.ts';

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
