// Bad input through the core: every committed case of fixtures/bad/cases.json gets
// exactly its problems (code and line), keeps what can be kept, gives back the bytes of every
// line it kept, and the three readers (parse, the envelope index, the storage scan) agree.
// The big cases run at modest sizes here; full sizes are in `npm run bench` (load suite).
import { describe, expect, test } from 'vitest';
import { branch, indexEnvelopes, parse, readHeader, serialize, walkBranch } from '../../../src/core/index.ts';
import { digestSession } from '../../../src/core/read/digest.ts';
import { deepNesting, hugeLine, longChain, TEST_SIZES } from './bad-input-big.ts';
import { bytesOfCase, cases, generatedFile } from './bad-input-cases.ts';

const SKIPPING = new Set(['torn', 'invalid-json', 'not-an-object']);

async function* chunked(bytes: Uint8Array, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

const coreCases = cases.filter((c) => c.core !== null);

describe('every committed bad-input case through the core', () => {
  test('the manifest names every file of fixtures/bad once', async () => {
    const { readdirSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const files = readdirSync(resolve(import.meta.dirname, '../../../fixtures/bad'))
      .filter((f) => f !== 'cases.json')
      .sort();
    expect(cases.map((c) => c.file).sort()).toEqual(files);
  });

  test.each(coreCases.map((c) => [c.file, c] as const))('%s', async (file, c) => {
    const bytes = bytesOfCase(file);
    const want = c.core!;
    const s = parse(bytes, { file });
    // The message names the file (the caller's name travels with the result) and every problem its line.
    expect(s.file).toBe(file);
    expect(s.problems.map((p) => [p.code, p.line])).toEqual(want.problems);
    for (const p of s.problems) {
      expect(p.message.length).toBeGreaterThan(5);
      expect(p.line).toBeGreaterThanOrEqual(1);
      expect(p.line).toBeLessThanOrEqual(Math.max(1, s.lineCount ?? 1));
    }
    // The rest is readable: entries kept, the leaf's branch walks and ends.
    expect(s.isSession).toBe(want.isSession);
    expect(s.entries).toHaveLength(want.entries);
    expect(branch(s)).toHaveLength(want.branch);
    expect(s.leafId).toBe(want.leafId);
    // Every kept record's bytes are the original line's bytes; a file nothing was skipped from comes back whole.
    const out = serialize(s, bytes);
    for (const r of s.records) expect(Buffer.from(bytes.subarray(r.start, r.end)).includes(10)).toBe(false);
    if (!s.problems.some((p) => SKIPPING.has(p.code))) expect(Buffer.from(out).equals(Buffer.from(bytes))).toBe(true);
    else expect(out.length).toBeLessThan(bytes.length);
    // readHeader (what import looks at first) agrees with the import outcome.
    const head = readHeader(bytes);
    const refused = !head.header || (head.problem !== undefined && head.problem.code !== 'future-version');
    expect(refused).toBe(c.import.outcome === 'rejected');
    if (refused && c.import.line !== undefined) expect(head.problem?.line).toBe(c.import.line);
    // The envelope index reports the same framing and tree problems (it does not validate bodies).
    const index = indexEnvelopes(bytes, { file });
    const unvalidated = parse(bytes, { validate: false }).problems.map((p) => [p.code, p.line]);
    expect(index.problems.map((p) => [p.code, p.line])).toEqual(unvalidated);
    expect(index.ids.length).toBe(want.entries);
    // The storage scan (what the library index keeps) agrees, whatever the chunk edges.
    for (const size of [1, 7, 4096, bytes.length || 1]) {
      const scan = await digestSession(chunked(bytes, size));
      expect(scan.digest.problems, `chunks of ${size}`).toBe(want.problems.length);
      expect(scan.digest.isSession).toBe(want.isSession);
      expect(scan.digest.entryCount).toBe(want.entries);
      const first = s.problems.find((p) => p.severity === 'error') ?? s.problems[0];
      expect(scan.digest.firstProblem?.line).toBe(first?.line);
    }
  });

  test('text input reads like its bytes for every case that is valid UTF-8', () => {
    for (const c of coreCases) {
      const bytes = bytesOfCase(c.file);
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        continue;
      }
      const a = parse(bytes);
      const b = parse(text);
      expect(
        b.problems.map((p) => [p.code, p.line]),
        c.file,
      ).toEqual(a.problems.map((p) => [p.code, p.line]));
      expect(b.entries.length).toBe(a.entries.length);
    }
  });
});

describe('big generated cases (modest sizes here, full sizes in the bench)', () => {
  const big = [hugeLine(TEST_SIZES.lineMb), longChain(TEST_SIZES.chain), deepNesting(TEST_SIZES.depth)];
  test.each(big.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { bytes } = generatedFile(c);
    const s = parse(bytes, { file: c.name });
    expect(s.isSession).toBe(true);
    expect(s.entries).toHaveLength(c.entries);
    expect(s.leafId).toBe(c.leafId);
    const walk = walkBranch(s);
    expect(walk.entries).toHaveLength(c.branch);
    // Deep nesting is read; only the message whose content is the nested value fails its schema.
    const expected = c.name.startsWith('deep') ? [['invalid-entry', 4]] : [];
    expect(s.problems.map((p) => [p.code, p.line])).toEqual(expected);
    const index = indexEnvelopes(bytes);
    expect(index.ids).toHaveLength(c.entries);
    expect(index.leafId).toBe(c.leafId);
    const scan = await digestSession(chunked(bytes, 4 * 1024 * 1024));
    expect(scan.digest.entryCount).toBe(c.entries);
    expect(scan.digest.problems).toBe(expected.length);
    expect(Buffer.from(serialize(s, bytes)).equals(Buffer.from(bytes))).toBe(true);
  });
});
