// Robustness: fast-check mutations of valid sessions (mutations.ts) — cut, splice, flip bytes,
// shuffle, duplicate and drop lines, reparent entries (orphans, self-parents, cycles). Parsing never
// throws, every problem has a line number of the input, parse→serialize gives back the bytes of
// every kept line, and tree walks end. "Does not hang" is enforced by the per-test timeouts only;
// speed is measured in `npm run bench`, not asserted here.
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { parse } from '../../../src/core/index.ts';
import { enc, MUTATION_RUNS, GENEROUS, BASES, mutationArb, mutate, checkInvariants } from './mutations.ts';

// The machine is shared: a test that waits for CPU must not fail on vitest's 5 s default.
vi.setConfig({ testTimeout: 120_000 });

describe('mutated sessions', () => {
  test(
    'parse never throws; problems carry input lines; kept lines round-trip; walks end',
    () => {
      fc.assert(
        fc.property(fc.nat({ max: BASES.length - 1 }), fc.array(mutationArb, { minLength: 1, maxLength: 6 }), (b, muts) => {
          let bytes = BASES[b];
          for (const m of muts) bytes = mutate(bytes, m);
          checkInvariants(bytes);
        }),
        { numRuns: MUTATION_RUNS, seed: Number(process.env.FIDELITY_SEED ?? 20261130) },
      );
    },
    Math.max(GENEROUS, MUTATION_RUNS * 1000),
  );

  test(
    'strings as input behave like their bytes',
    () => {
      fc.assert(
        fc.property(fc.nat({ max: BASES.length - 1 }), fc.array(mutationArb, { minLength: 1, maxLength: 3 }), (b, muts) => {
          let bytes = BASES[b];
          for (const m of muts) if (m.kind !== 'flip') bytes = mutate(bytes, m);
          const text = new TextDecoder().decode(bytes);
          const fromText = parse(text);
          const fromBytes = parse(enc.encode(text));
          expect(fromText.records.map((r) => [r.line, r.start, r.end])).toEqual(fromBytes.records.map((r) => [r.line, r.start, r.end]));
          expect(fromText.problems).toEqual(fromBytes.problems);
          expect(fromText.leafId).toEqual(fromBytes.leafId);
        }),
        { numRuns: Math.max(60, MUTATION_RUNS >> 1), seed: 7 },
      );
    },
    GENEROUS,
  );

  test(
    'random bytes and random text never throw',
    () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => checkInvariants(bytes)),
        { numRuns: 200, seed: 11 },
      );
      fc.assert(
        fc.property(fc.array(fc.oneof(fc.json(), fc.string()), { maxLength: 30 }), (lines) => checkInvariants(enc.encode(lines.join('\n')))),
        { numRuns: 200, seed: 12 },
      );
    },
    GENEROUS,
  );
});
