// Lossless reading (session-format.md §0.1.2): for every fixture, serializing the parsed records
// gives back the input bytes. Files with lines no reader can keep (blank, torn, not JSON, not an
// object) give back exactly their other lines, and every line left out is accounted for.
import { describe, expect, test, vi } from 'vitest';
import { parse, serialize } from '../../../src/core/index.ts';
import { generateSessionText } from '../../gen/session.ts';
import { firstDifference, fixtureFiles, isBlankLine, joinLines, physicalLines, readBytes } from './support.ts';

// The machine is shared: a test that waits for CPU must not fail on vitest's 5 s default.
vi.setConfig({ testTimeout: 120_000 });

// Fixtures that hold lines which are not records (blank, torn, invalid JSON, non-objects); every
// other fixture must round-trip byte for byte. Listed so that a reader that starts dropping lines
// of a clean file fails loudly instead of slipping into the weaker check.
const NOT_ALL_RECORDS = new Set([
  'fixtures/synthetic/edge-blank-crlf.jsonl',
  'fixtures/synthetic/edge-non-object.jsonl',
  'fixtures/synthetic/edge-torn-tail.jsonl',
]);
const SKIP_CODES = new Set(['torn', 'invalid-json', 'not-an-object']);

function checkRoundTrip(name: string, bytes: Uint8Array): void {
  const session = parse(bytes, { file: name });
  const out = serialize(session, bytes);
  const lines = physicalLines(bytes);
  const byLine = new Map(lines.map((l) => [l.line, l]));

  // Each record is exactly one physical line, in file order.
  let prev = 0;
  for (const r of session.records) {
    const l = byLine.get(r.line);
    expect(l, `${name}: record on line ${r.line}`).toBeDefined();
    expect([r.start, r.end], `${name}: byte range of line ${r.line}`).toEqual([l!.start, l!.end]);
    expect(r.line).toBeGreaterThan(prev);
    prev = r.line;
  }
  // Every non-blank line that is not a record is reported with its line number.
  const recordLines = new Set(session.records.map((r) => r.line));
  const skipped = new Set(session.problems.filter((p) => SKIP_CODES.has(p.code)).map((p) => p.line));
  for (const l of lines) {
    if (recordLines.has(l.line) || isBlankLine(bytes, l)) continue;
    expect(skipped.has(l.line), `${name}: line ${l.line} neither kept nor reported`).toBe(true);
  }
  const kept = lines.filter((l) => recordLines.has(l.line));
  expect(firstDifference(out, joinLines(bytes, kept)), `${name}: serialize = kept lines`).toBeNull();
  if (!NOT_ALL_RECORDS.has(name) && bytes.length > 0) {
    expect(firstDifference(out, bytes), `${name}: serialize = input`).toBeNull();
  }
}

describe('every committed fixture round-trips', () => {
  for (const file of fixtureFiles()) {
    test(file, () => checkRoundTrip(file, readBytes(file)));
  }
});

describe('generated sessions round-trip', () => {
  for (const flavor of ['pi', 'omp', 'rho'] as const) {
    test(`${flavor}, 3 MB`, () => {
      const bytes = new TextEncoder().encode(generateSessionText({ seed: 99, targetBytes: 3e6, flavor }));
      checkRoundTrip(`generated-${flavor}`, bytes);
      const s = parse(bytes);
      expect(s.problems.filter((p) => p.severity === 'error')).toEqual([]);
    });
  }
});

test('the committed fixture list covers every folder', () => {
  const files = fixtureFiles();
  for (const dir of ['real', 'synthetic', 'omp', 'pi']) {
    expect(
      files.some((f) => f.startsWith(`fixtures/${dir}/`)),
      dir,
    ).toBe(true);
  }
  for (const f of NOT_ALL_RECORDS) expect(files).toContain(f);
});
