// The library API exporting: bundles restored on another device, branches, forks.
import { gzipSync } from 'node:zlib';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { parse } from '../../../src/core/index.ts';
import type { CallContext, Progress } from '../../../src/worker/protocol.ts';
import { toApiError } from '../../../src/worker/protocol.ts';
import { bytes, headerLine, messageLine, sessionText } from '../../storage/helpers.ts';
import { file, setup, text } from './api-setup.ts';

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
