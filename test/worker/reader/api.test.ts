import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../../src/worker/api.ts';
import { HEADER, jsonl, m } from '../../core/helpers.ts';
import { memoryStore } from '../../storage/helpers.ts';

const welcome = new Uint8Array(readFileSync(new URL('../../../fixtures/samples/welcome.jsonl', import.meta.url)));
// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const SHA = 'a'.repeat(64);

const images = new TextEncoder().encode(
  jsonl(
    HEADER,
    m('i1', null, {
      role: 'user',
      content: [
        { type: 'text', text: 'pictures' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'image', data: btoa('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), mimeType: 'image/svg+xml' },
        { type: 'image', data: btoa('<html><script>alert(1)</script></html>'.repeat(10)), mimeType: 'image/png' },
        { type: 'image', data: `blob:sha256:${SHA}`, mimeType: 'image/png' },
        { type: 'image', data: `blob:sha256:${'b'.repeat(64)}`, mimeType: 'image/png' },
      ],
    }),
  ),
);

const pngBytes = Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0));
const { store } = memoryStore({ now: () => 1_700_000_000_000 });
const api = createApi({ store, now: () => new Date(0), randomId: () => '00000000' });
const WELCOME = '0193a5c2-7e10-7c4e-9f1a-5a7f0e2b9c11';
const IMAGES = HEADER.id;

beforeAll(async () => {
  const report = await api.importFiles({ files: [new File([welcome], 'welcome.jsonl'), new File([images], 'images.jsonl')] });
  expect(report.items.map((i) => i.outcome)).toEqual(['added', 'added']);
  await store.writeBlob(SHA, pngBytes);
});

describe('reader half of the worker API', () => {
  it('opens a session at its leaf with an outline, not the whole file', async () => {
    const view = await api.openSession({ id: WELCOME });
    expect(view.leafId).toBe('d7e8f90a');
    expect(view.count).toBeGreaterThan(5);
    expect(view.leafCount).toBe(2);
    expect(JSON.stringify(view).length).toBeLessThan(welcome.length);
  });

  it('sends windows of items with their positions', async () => {
    const view = await api.openSession({ id: WELCOME });
    const items = await api.readItems({ id: WELCOME, leafId: view.leafId, start: 2, end: 5 });
    expect(items.map((i) => i.index)).toEqual([2, 3, 4]);
    const all = await api.readItems({ id: WELCOME, leafId: view.leafId, start: 0, end: 1000 });
    expect(all.length).toBe(view.count);
  });

  it('opens the branch of a deep-linked entry and says where it is', async () => {
    const view = await api.openSession({ id: WELCOME, entryId: 'f2ab14cd' });
    expect(view.leafId).toBe('a3bc25de');
    const [item] = await api.readItems({ id: WELCOME, leafId: view.leafId, start: view.entryIndex!, end: view.entryIndex! + 1 });
    expect(item.entryId).toBe('f2ab14cd');
  });

  it('gives the raw line of an entry byte for byte', async () => {
    const line = await api.entryJson({ id: WELCOME, entryId: 'e1fa03bc' });
    expect(new TextDecoder().decode(welcome).split('\n')).toContain(line);
  });

  it('builds the model context with the branch summary, and lists what is not sent', async () => {
    const ctx = await api.sessionContext({ id: WELCOME });
    expect(ctx.messages[0].role).toBe('user');
    expect(ctx.messages.some((msg) => msg.parts.some((p) => p.text.includes('Tried parseFloat')))).toBe(true);
    expect(ctx.dropped.some((d) => d.reason === 'not-sent' && d.what === 'label')).toBe(true);
  });

  it('counts the branch apart from the whole file', async () => {
    const stats = await api.sessionStats({ id: WELCOME });
    expect(stats.file.turns).toBe(stats.branch.turns + 1);
    expect(stats.file.cost).toBeGreaterThan(stats.branch.cost);
    // Turns with no usage (the interrupted one) are not charted.
    expect(stats.series.length).toBe(stats.branch.turns - 1);
    expect(stats.branch.errors).toBe(0);
  });

  it('finds in tool output', async () => {
    const hits = await api.findInSession({ id: WELCOME, query: 'negative heights' });
    expect(hits.length).toBeGreaterThan(0);
  });

  it('hands out images only when their bytes are a raster image; SVG, fakes and missing blobs are null', async () => {
    const png = await api.imageBlob({ id: IMAGES, entryId: 'i1', part: 1 });
    expect(png?.type).toBe('image/png');
    expect(await api.imageBlob({ id: IMAGES, entryId: 'i1', part: 2 })).toBeNull();
    expect(await api.imageBlob({ id: IMAGES, entryId: 'i1', part: 3 })).toBeNull();
    expect((await api.imageBlob({ id: IMAGES, entryId: 'i1', part: 4 }))?.type).toBe('image/png');
    expect(await api.imageBlob({ id: IMAGES, entryId: 'i1', part: 5 })).toBeNull();
    const [item] = await api.readItems({ id: IMAGES, start: 0, end: 1 });
    expect(item.kind === 'user' && item.images.map((i) => i.showable)).toEqual([true, false, true, true, true]);
    expect(item.kind === 'user' && item.images[4].blobRef).toBe('b'.repeat(64));
  });

  it('refuses unknown filters and missing sessions with coded errors', async () => {
    await expect(api.readItems({ id: WELCOME, start: 0, end: 1, filter: 'nope' as never })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(api.openSession({ id: 'missing' })).rejects.toThrow();
  });
});
