// The fixture generator is deterministic and the committed fixtures are what it produces now
// (so `npm run fixtures` never leaves an unexplained diff, and a generator change that is not
// re-run fails here). Generated sessions reach their size and hold the promised ingredients.
import { describe, expect, test, vi } from 'vitest';
import { parse } from '../../../src/core/index.ts';
import { smallFixtures } from '../../gen/fixtures.ts';
import { generateSessionText } from '../../gen/session.ts';
import { readBytes } from './support.ts';

// The machine is shared: a test that waits for CPU must not fail on vitest's 5 s default.
vi.setConfig({ testTimeout: 120_000 });

describe('generator', () => {
  test('committed fixtures equal a fresh run of `npm run fixtures`', async () => {
    const files = await smallFixtures();
    const stale: string[] = [];
    for (const [rel, text] of Object.entries(files)) {
      if (Buffer.compare(Buffer.from(readBytes(rel)), Buffer.from(text)) !== 0) stale.push(rel);
    }
    expect(stale).toEqual([]);
    expect(Object.keys(files).length).toBeGreaterThan(25);
  }, 180_000);

  test('same seed, same bytes; another seed, other bytes', () => {
    const a = generateSessionText({ seed: 8, targetBytes: 200_000, flavor: 'omp' });
    expect(generateSessionText({ seed: 8, targetBytes: 200_000, flavor: 'omp' })).toBe(a);
    expect(generateSessionText({ seed: 9, targetBytes: 200_000, flavor: 'omp' })).not.toBe(a);
  });

  /** Entry types, roles, stop reasons and part types seen, and whether some entry has two children. */
  function ingredients(text: string, kinds: Set<string>): boolean {
    const s = parse(text);
    expect(s.problems.filter((p) => p.severity === 'error')).toEqual([]);
    const childCount = new Map<string, number>();
    for (const e of s.entries) {
      if (typeof e.parentId === 'string') childCount.set(e.parentId, (childCount.get(e.parentId) ?? 0) + 1);
      kinds.add(e.type);
      const m = e.message as { role?: string; content?: unknown; stopReason?: string } | undefined;
      if (!m) continue;
      kinds.add(`role:${m.role}`);
      if (m.stopReason) kinds.add(`stop:${m.stopReason}`);
      for (const p of Array.isArray(m.content) ? (m.content as { type: string; data?: string }[]) : []) {
        kinds.add(`part:${p.type}`);
        if (p.type === 'image' && p.data?.startsWith('blob:')) kinds.add('blob');
      }
    }
    return [...childCount.values()].some((n) => n > 1);
  }

  test('generated sessions reach their size and hold every ingredient (two seeds per flavour)', () => {
    for (const flavor of ['pi', 'omp', 'rho'] as const) {
      const kinds = new Set<string>();
      let branched = false;
      for (const seed of [1, 2]) {
        const text = generateSessionText({ seed, targetBytes: 3_000_000, flavor });
        expect(Buffer.byteLength(text)).toBeGreaterThanOrEqual(3_000_000);
        branched = ingredients(text, kinds) || branched;
      }
      const want = [
        'compaction',
        'branch_summary',
        'model_change',
        'custom_message',
        'role:user',
        'role:assistant',
        'role:toolResult',
        'part:thinking',
        'part:toolCall',
        'part:image',
        'stop:aborted',
        'stop:error',
        'stop:toolUse',
      ];
      if (flavor === 'omp') want.push('reset_boundary', 'blob', 'part:redactedThinking');
      for (const k of want) expect(kinds.has(k), `${flavor}: ${k}`).toBe(true);
      expect(branched, `${flavor}: branches`).toBe(true);
    }
  }, 180_000);
});
