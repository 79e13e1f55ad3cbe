// A picture, a document or an archive named .jsonl is refused by what it is, not by its first line.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { binaryKind } from '../../../src/core/read/magic.ts';
import { createApi } from '../../../src/worker/api.ts';
import { memoryStore } from '../../storage/helpers.ts';

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const png = new Uint8Array(readFileSync(new URL('../../../fixtures/bad/png-renamed.jsonl', import.meta.url)));
const samples: Array<[string, number[]]> = [
  ['a JPEG image', [0xff, 0xd8, 0xff, 0xe0, 0, 0x10, ...ascii('JFIF')]],
  ['a GIF image', ascii('GIF89a\x01\x00\x01\x00')],
  ['a WebP image', [...ascii('RIFF'), 0x24, 0, 0, 0, ...ascii('WEBPVP8 ')]],
  ['a PDF document', ascii('%PDF-1.7\n%\xe2\xe3')],
  ['a SQLite database', [...ascii('SQLite format 3'), 0, 0x10, 0]],
];

test('known binary formats by their magic bytes; text and near misses are not one', () => {
  expect(binaryKind(png)).toBe('a PNG image');
  for (const [what, bytes] of samples) expect(binaryKind(new Uint8Array(bytes))).toBe(what);
  expect(binaryKind(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0]))).toBe('a zip archive');
  expect(binaryKind(new TextEncoder().encode('{"type":"session"}\n'))).toBeNull();
  expect(binaryKind(new Uint8Array([...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WAVE')]))).toBeNull();
  expect(binaryKind(new Uint8Array([0x89, 0x50]))).toBeNull();
});

test('import refuses each with what it is, naming the file, and stores nothing', async () => {
  const { store } = memoryStore({ now: () => 1 });
  const api = createApi({ store, now: () => new Date(0), randomId: () => '00000000' });
  const files = [new File([png], 'shot.jsonl'), ...samples.map(([, b], i) => new File([new Uint8Array([...b, ...new Array(64).fill(0)])], `f${i}.jsonl`))];
  const report = await api.importFiles({ files });
  expect(report.items.map((i) => [i.name, i.outcome, i.reason, i.line])).toEqual([
    ['shot.jsonl', 'rejected', 'this is a PNG image, not a session', undefined],
    ...samples.map(([what], i) => [`f${i}.jsonl`, 'rejected', `this is ${what}, not a session`, undefined]),
  ]);
  expect(await api.listSessions()).toEqual([]);
});
