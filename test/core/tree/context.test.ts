// The branch split at its latest compaction (compacted) and the context built from it (context).
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { COMPACTION_SUMMARY_PREFIX, COMPACTION_SUMMARY_SUFFIX, branch, compacted, context, parse } from '../../../src/core/index.ts';
import { e } from '../helpers.ts';
import { valid, u, T, chain } from './context-helpers.ts';

describe('compacted', () => {
  test('splits at the latest compaction: kept from firstKeptEntryId, later after it', () => {
    const b = chain(
      u('1', null, 'a'),
      u('2', null, 'b'),
      e('c1', null, 'compaction', { summary: 'old', firstKeptEntryId: '2', tokensBefore: 1 }),
      u('3', null, 'c'),
      e('c2', null, 'compaction', { summary: 'new', firstKeptEntryId: '3', tokensBefore: 1 }),
      u('4', null, 'd'),
    );
    const r = compacted(b);
    expect(r.compaction?.id).toBe('c2');
    expect(r.kept.map((x) => x.id)).toEqual(['3']);
    expect(r.later.map((x) => x.id)).toEqual(['4']);
  });

  test('kept is empty when firstKeptEntryId is not before the compaction', () => {
    const b = chain(u('1', null, 'a'), e('c', null, 'compaction', { summary: 's', firstKeptEntryId: 'zz', tokensBefore: 1 }), u('2', null, 'b'));
    expect(compacted(b).kept).toEqual([]);
    expect(compacted(b).later.map((x) => x.id)).toEqual(['2']);
  });

  test('without a compaction: {null, [], branch}', () => {
    const b = chain(u('1', null, 'a'));
    expect(compacted(b)).toEqual({ compaction: null, kept: [], later: b });
  });
});

describe('context', () => {
  test('compaction summary first (pi wrapper), then kept, then later', () => {
    const b = chain(
      u('1', null, 'old'),
      u('2', null, 'kept'),
      e('c', null, 'compaction', { summary: 'SUM', firstKeptEntryId: '2', tokensBefore: 1 }),
      u('3', null, 'new'),
    );
    const out = valid(context(b));
    expect(out).toEqual([
      { role: 'user', content: [T(COMPACTION_SUMMARY_PREFIX + 'SUM' + COMPACTION_SUMMARY_SUFFIX)] },
      { role: 'user', content: [T('kept')] },
      { role: 'user', content: [T('new')] },
    ]);
    expect(COMPACTION_SUMMARY_PREFIX).toBe('The conversation history before this point was compacted into the following summary:\n\n<summary>\n');
    expect(COMPACTION_SUMMARY_SUFFIX).toBe('\n</summary>');
  });

  test('the summary lists attachments of summarized user messages', () => {
    const att = { kind: 'image', name: 'p.png', path: '/w/p.png', mimeType: 'image/png', about: '3 KB photo' };
    const att2 = { kind: 'pdf', name: 'r.pdf', path: '/w/r.pdf', mimeType: 'application/pdf', about: '2 pages' };
    const keptAtt = { ...att, name: 'kept.png' };
    const b = chain(
      u('1', null, [T('see')], { attachments: [att, att2] }),
      u('2', null, 'k', { attachments: [keptAtt] }),
      e('c', null, 'compaction', { summary: 'S', firstKeptEntryId: '2', tokensBefore: 1 }),
    );
    const first = context(b)[0] as { content: { text: string }[] };
    expect(first.content[0].text).toBe(
      COMPACTION_SUMMARY_PREFIX +
        'S' +
        COMPACTION_SUMMARY_SUFFIX +
        '\n\nAttachments from the summarized conversation:\n- p.png (image/png) at /w/p.png: 3 KB photo\n- r.pdf (application/pdf) at /w/r.pdf: 2 pages',
    );
  });

  test('real v1 fixture with compactions gives valid messages starting with the latest summary', () => {
    const s = parse(new Uint8Array(readFileSync(new URL('../../../fixtures/real/pi-mono-before-compaction-first-762-lines.jsonl', import.meta.url))));
    const out = valid(context(branch(s)));
    const first = out[0] as { content: { text: string }[] };
    expect(first.content[0].text.startsWith(COMPACTION_SUMMARY_PREFIX)).toBe(true);
    const latest = compacted(branch(s)).compaction;
    expect(first.content[0].text).toContain(String(latest?.summary));
  });

  test('real large v1 fixture: every output message is valid', () => {
    const s = parse(new Uint8Array(readFileSync(new URL('../../../fixtures/real/pi-mono-large-session.jsonl', import.meta.url))));
    const out = valid(context(branch(s)));
    expect(out.length).toBeGreaterThan(100);
  });
});
