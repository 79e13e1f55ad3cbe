// The date of a session: its latest entry's time, labels and names left out, else its header's; the
// library's record (the digest) and the search index (the extractor) give the same one.
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { digestSession } from '../../../src/core/read/digest.ts';
import { createExtractor } from '../../../src/worker/search/extract.ts';

const realDir = new URL('../../../fixtures/real/', import.meta.url);
const realFiles = readdirSync(realDir).filter((f) => f.endsWith('.jsonl'));

/** The rule, read straight from the lines (ms; 0 when nothing has a time). */
function expectedDate(text: string): number {
  let header = 0;
  let latest = 0;
  for (const line of text.split('\n').filter(Boolean)) {
    const r = JSON.parse(line) as { type: string; timestamp?: unknown; message?: { timestamp?: unknown } };
    const t = typeof r.timestamp === 'string' ? Date.parse(r.timestamp) : typeof r.message?.timestamp === 'number' ? r.message.timestamp : Number.NaN;
    if (r.type === 'session') header = Number.isNaN(t) ? 0 : t;
    else if (!['label', 'session_info', 'title_change'].includes(r.type) && t > latest) latest = t;
  }
  return latest || header;
}

async function dates(text: string): Promise<{ digest: number; search: number }> {
  const { digest } = await digestSession([new TextEncoder().encode(text)]);
  const x = createExtractor('s', '');
  for (const line of text.split('\n')) if (line) x.line(line);
  return { digest: digest.date, search: x.finish(text.length).meta.date };
}

test.each(realFiles)('real fixture %s: the library and search give the date of the rule', async (name) => {
  const text = readFileSync(new URL(name, realDir), 'utf8');
  const want = expectedDate(text);
  expect(await dates(text)).toEqual({ digest: want, search: want });
});

test('a label or a name added later leaves the date; a message moves it; a header alone dates the session', async () => {
  const header = JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: '2026-02-09T10:00:00.000Z', cwd: '/p' });
  const msg = (id: string, at: string) =>
    JSON.stringify({ type: 'message', id, parentId: null, timestamp: at, message: { role: 'user', content: 'hi', timestamp: 1 } });
  const label = JSON.stringify({ type: 'label', id: 'l1', parentId: 'm1', timestamp: '2026-12-05T09:00:00.000Z', targetId: 'm1', label: 'today' });
  const named = JSON.stringify({ type: 'session_info', id: 'n1', parentId: 'l1', timestamp: '2026-12-05T09:01:00.000Z', name: 'Renamed' });
  const feb13 = Date.parse('2026-02-13T08:00:00.000Z');
  expect(await dates(header)).toEqual({ digest: Date.parse('2026-02-09T10:00:00.000Z'), search: Date.parse('2026-02-09T10:00:00.000Z') });
  const talked = [header, msg('m1', '2026-02-13T08:00:00.000Z')].join('\n');
  expect(await dates(talked)).toEqual({ digest: feb13, search: feb13 });
  expect(await dates([talked, label, named].join('\n'))).toEqual({ digest: feb13, search: feb13 });
  const later = Date.parse('2026-12-05T10:00:00.000Z');
  expect(await dates([talked, label, named, msg('m2', '2026-12-05T10:00:00.000Z')].join('\n'))).toEqual({ digest: later, search: later });
});
