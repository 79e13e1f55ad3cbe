// The envelope index (indexEnvelopes: one pass, bodies not parsed) must say what
// parse(input, {validate: false}) says — same entries, ids, parents, leaf, problems — and its
// branch's bodies must be parse's branch. Checked over every fixture, over fast-check mutations of
// valid files, and over JSON lines whose body (not envelope) is broken, where a scanner that skips
// bodies is most likely to disagree with JSON.parse.
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { bodiesOf, branch, branchOfIndex, indexEnvelopes, parse, scanEnvelope } from '../../../src/core/index.ts';
import { generateSessionText } from '../../gen/session.ts';
import { fixtureFiles, readBytes } from './support.ts';

// The machine is shared: a test that waits for CPU must not fail on vitest's 5 s default.
vi.setConfig({ testTimeout: 120_000 });

const enc = new TextEncoder();
/** FIDELITY_SCALE=<n> multiplies the property runs (heavier manual runs). */
const SCALE = Number(process.env.FIDELITY_SCALE ?? 1);

/** The index's view and parse's view of one input, in comparable form. */
function views(input: Uint8Array) {
  const s = parse(input, { validate: false });
  const x = indexEnvelopes(input);
  return {
    parse: {
      isSession: s.isSession,
      version: s.version,
      leafId: s.leafId,
      lines: s.entryLines,
      ids: s.entries.map((e) => e.id),
      parentIds: s.entries.map((e) => e.parentId),
      problems: s.problems.map((p) => `${p.line}:${p.code}`),
    },
    index: {
      isSession: x.isSession,
      version: x.version,
      leafId: x.leafId,
      lines: x.lines,
      ids: x.ids,
      parentIds: x.parentIds,
      problems: x.problems.map((p) => `${p.line}:${p.code}`),
    },
    branches: { parse: branch(s), index: bodiesOf(x, branchOfIndex(x)) },
  };
}

function expectAgreement(input: Uint8Array): void {
  const v = views(input);
  expect(v.index).toEqual(v.parse);
  expect(v.branches.index).toEqual(v.branches.parse);
}

describe('index = parse on every fixture', () => {
  for (const file of fixtureFiles()) test(file, () => expectAgreement(readBytes(file)));
  test('generated omp and rho sessions', () => {
    for (const flavor of ['omp', 'rho'] as const) expectAgreement(enc.encode(generateSessionText({ seed: 21, targetBytes: 400_000, flavor })));
  });
});

const HEADER = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}';
const ROOT = '{"type":"custom","customType":"x","id":"a","parentId":null}';
const file = (...lines: string[]) => enc.encode([HEADER, ROOT, ...lines].join('\n') + '\n');

describe('lines that are not valid JSON are skipped by parse, so the index must skip them too', () => {
  const broken: Record<string, string> = {
    'trailing comma in a nested array': '{"type":"message","id":"b","parentId":"a","message":{"role":"user","content":[1,]}}',
    'number with a leading zero': '{"type":"message","id":"b","parentId":"a","x":01}',
    'a lone minus sign': '{"type":"message","id":"b","parentId":"a","x":-}',
    'a raw tab inside a string value': '{"type":"message","id":"b","parentId":"a","x":"tab\there"}',
    'a raw control character in the id': '{"type":"message","id":"b\u0001","parentId":"a"}',
    'a missing colon in a nested object': '{"type":"message","id":"b","parentId":"a","x":{"k" 1}}',
  };
  test('invalid JSON in a body (trailing comma, 01, lone minus, raw tab or control character, missing colon) is skipped by the index as by parse', () => {
    const disagree: string[] = [];
    for (const [name, line] of Object.entries(broken)) {
      expect(() => JSON.parse(line)).toThrow();
      const v = views(file(line));
      if (JSON.stringify(v.index) !== JSON.stringify(v.parse))
        disagree.push(
          `${name}: index leaf ${v.index.leafId} / parse leaf ${v.parse.leafId}, index problems [${v.index.problems}] / parse problems [${v.parse.problems}]`,
        );
    }
    expect(disagree).toEqual([]);
  });
});

describe('scanEnvelope agrees with JSON.parse whenever it decides', () => {
  // Objects with the envelope keys at random places, duplicated, escaped, nested as decoys, with
  // odd whitespace; values of every JSON kind.
  const str = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('a"b', 'a\\b', '\u2028', 'é', '', 'null', '\ud83c\udf89'));
  const val = fc.oneof(str, fc.constant(null), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.jsonValue({ maxDepth: 2 }));
  const key = fc.oneof(
    fc.constantFrom('type', 'id', 'parentId', 'typ', 'ids', 'parentID', 'Type', 'message', 'customType', 'type\u0000'),
    fc.string({ maxLength: 4 }),
  );
  const ws = fc.constantFrom('', ' ', '\t', '\r', '  ');
  const member = fc.tuple(key, val, ws, ws, fc.boolean());
  const line = fc.array(member, { maxLength: 7 }).map(
    (members) =>
      '{' +
      members
        .map(([k, v, w1, w2, escapeKey]) => {
          const ks =
            escapeKey && k.length > 0 ? '"\\u' + k.charCodeAt(0).toString(16).padStart(4, '0') + JSON.stringify(k.slice(1)).slice(1) : JSON.stringify(k);
          return `${w1}${ks}${w2}:${w1}${JSON.stringify(v)}${w2}`;
        })
        .join(',') +
      '}',
  );

  test("valid objects: decided values equal JSON.parse's", () => {
    fc.assert(
      fc.property(line, (s) => {
        const parsed = JSON.parse(s) as Record<string, unknown>;
        const got = scanEnvelope(s);
        if (got === null) return;
        const want = (k: 'type' | 'id' | 'parentId') => (k in parsed ? parsed[k] : undefined);
        expect(got.type).toEqual(want('type'));
        expect(got.id).toEqual(want('id'));
        expect(got.parentId).toEqual(want('parentId'));
      }),
      { numRuns: 3000 * SCALE, seed: 99 + SCALE },
    );
  });

  test('broken lines are never decided (else the index keeps what parse skips)', () => {
    fc.assert(
      fc.property(line, fc.nat(), fc.constantFrom(',', ':', '{', '}', '[', ']', '"', '\t', '\u0001', '-', '0', 'x', ' '), (s, at, ch) => {
        const pos = at % (s.length + 1);
        const t = s.slice(0, pos) + ch + s.slice(pos);
        let valid = true;
        try {
          JSON.parse(t);
        } catch {
          valid = false;
        }
        fc.pre(!valid);
        expect(scanEnvelope(t), t).toBeNull();
      }),
      { numRuns: 2000 * SCALE, seed: 100 + SCALE },
    );
  });
});

describe('index = parse after mutations', () => {
  const base = readBytes('fixtures/pi/pi-random-202.jsonl');
  test(
    'byte flips, splices, cuts (a single flipped byte inside a message body is enough)',
    () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('flip', 'insert', 'cut')), { minLength: 1, maxLength: 4 }),
          (ops) => {
            let bytes = base;
            for (const [at, b, kind] of ops) {
              const i = at % bytes.length;
              if (kind === 'flip') {
                bytes = bytes.slice();
                bytes[i] ^= b || 1;
              } else if (kind === 'insert') {
                const out = new Uint8Array(bytes.length + 1);
                out.set(bytes.subarray(0, i));
                out[i] = b;
                out.set(bytes.subarray(i), i + 1);
                bytes = out;
              } else bytes = bytes.slice(0, Math.max(1, i));
            }
            expectAgreement(bytes);
          },
        ),
        { numRuns: 300 * SCALE, seed: 101 + SCALE },
      );
    },
    180_000 * SCALE,
  );
});
