// Robustness on size and shape: a large session and pathological shapes (deep chains, wide fans,
// cycles) are read and walked to the end. "Does not hang" is enforced by the per-test timeouts only;
// speed is measured in `npm run bench`, not asserted here.
import { describe, expect, test, vi } from 'vitest';
import { branch, context, indexEnvelopes, parse } from '../../../src/core/index.ts';
import { generateSessionText } from '../../gen/session.ts';
import { enc, GENEROUS } from './mutations.ts';

// The machine is shared: a test that waits for CPU must not fail on vitest's 5 s default.
vi.setConfig({ testTimeout: 120_000 });

describe('runtime bound (generous: only "does not hang")', () => {
  // 5 s per MB, enforced by the test timeout alone; real speed is `npm run bench`'s business.
  const MB = 20;
  test(
    `parse + branch + context + envelope index of a ${MB} MB session`,
    () => {
      const bytes = enc.encode(generateSessionText({ seed: 17, targetBytes: MB * 1e6, flavor: 'omp' }));
      const s = parse(bytes);
      expect(context(branch(s)).length).toBeGreaterThan(0);
      expect(indexEnvelopes(bytes).ids.length).toBe(s.entries.length);
    },
    MB * 5000,
  );
});

describe('pathological shapes end', () => {
  const header = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}';
  const entry = (id: string, parentId: string | null) =>
    JSON.stringify({ type: 'custom', customType: 'x', id, parentId, timestamp: '2026-01-01T00:00:00.000Z' });

  test(
    'a 100,000-entry chain walks to the root',
    () => {
      const lines = [header];
      for (let i = 0; i < 100_000; i++) lines.push(entry(`e${i}`, i === 0 ? null : `e${i - 1}`));
      const s = parse(lines.join('\n') + '\n');
      expect(branch(s)).toHaveLength(100_000);
    },
    GENEROUS,
  );

  test(
    'a 50,000-entry parent cycle is reported and walks stop',
    () => {
      const lines = [header];
      const n = 50_000;
      for (let i = 0; i < n; i++) lines.push(entry(`c${i}`, `c${(i + n - 1) % n}`));
      const s = parse(lines.join('\n') + '\n');
      expect(s.problems.some((p) => p.code === 'cycle')).toBe(true);
      expect(branch(s)).toHaveLength(n);
    },
    GENEROUS,
  );

  test(
    'deeply nested JSON and a 20 MB single line do not crash the reader',
    () => {
      const deep = '{"type":"custom","customType":"x","id":"d1","parentId":null,"data":' + '['.repeat(200_000) + ']'.repeat(200_000) + '}';
      const big = JSON.stringify({ type: 'custom', customType: 'x', id: 'd2', parentId: 'd1', data: 'x'.repeat(20_000_000) });
      const s = parse([header, deep, big].join('\n') + '\n');
      expect(s.records.length).toBeGreaterThanOrEqual(2);
      expect(
        branch(s)
          .map((e) => e.id)
          .at(-1),
      ).toBe('d2');
    },
    GENEROUS,
  );

  test(
    '100,000 duplicate ids keep the later winner',
    () => {
      const lines = [header];
      for (let i = 0; i < 100_000; i++) lines.push(entry('same', null));
      const s = parse(lines.join('\n') + '\n');
      expect(s.problems.filter((p) => p.code === 'duplicate-id')).toHaveLength(99_999);
      expect(s.byId.get('same')).toBe(s.entries.at(-1));
    },
    GENEROUS,
  );
});
