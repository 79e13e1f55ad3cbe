// Differential tests against the real thing (pi 0.73.1): our branch and context agree with pi's
// SessionManager.getBranch / buildSessionContext + convertToLlm after applying ONLY the §0.3
// differences (normalize.ts says which). Over every fixture pi can read, and over random trees
// written by pi's own SessionManager (fast-check drives seeds and lengths; bounded numRuns here,
// FIDELITY_RUNS=<n> for heavier runs).
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSessionContext, convertToLlm, migrateSessionEntries, parseSessionEntries, SessionManager } from '@mariozechner/pi-coding-agent';
import fc from 'fast-check';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { branch, context, displayTitle, leaves, parse, type ContextOptions, type ParsedSession } from '../../../src/core/index.ts';
import { applyPiOps, piFileText } from '../../gen/pi-ops.ts';
import { createRng } from '../../gen/prng.ts';
import { randomPiOps } from '../../gen/random-ops.ts';
import { expectedFromPi, fromModelMessages } from './normalize.ts';
import { piPath, summarizedAttachments } from './pi-path.ts';
import { fixtureFiles, readBytes, ROOT } from './support.ts';

// The machine is shared: a test that waits for CPU must not fail on vitest's 5 s default.
vi.setConfig({ testTimeout: 120_000 });

const RUNS = Number(process.env.FIDELITY_RUNS ?? 60);
const tmp = mkdtempSync(join(tmpdir(), 'fidelity-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// Files pi cannot read at all, so there is nothing to compare with (session-format.md §6):
// a parentId cycle hangs pi; a non-object line crashes its builder; without a header first (or
// with no bytes at all) pi's loader refuses the file.
const PI_CANNOT_READ = new Set([
  'fixtures/synthetic/edge-cycle.jsonl',
  'fixtures/synthetic/edge-cycle-leaf.jsonl',
  'fixtures/synthetic/edge-non-object.jsonl',
  'fixtures/synthetic/edge-no-header.jsonl',
  'fixtures/synthetic/edge-header-not-first.jsonl',
  'fixtures/synthetic/edge-empty.jsonl',
]);

type Any = Record<string, any>;

/** pi's entries for a file text: parseSessionEntries + migration, header (and omp title slot) left out. */
function piEntries(text: string): Any[] {
  const all = parseSessionEntries(text) as Any[];
  migrateSessionEntries(all as never);
  const firstIsSlot = all[0]?.type === 'title' && all[1]?.type === 'session';
  return all.filter((e, i) => e.type !== 'session' && !(firstIsSlot && i === 0));
}

/** Our context vs pi's for one leaf, under `opts`. */
function compareContext(session: ParsedSession, entries: Any[], leafId: string | null | undefined, opts: ContextOptions = {}): void {
  const pi = buildSessionContext(entries as never, leafId);
  const llm = convertToLlm(pi.messages) as Any[];
  const attachmentLines = summarizedAttachments(piPath(entries, leafId));
  const expected = expectedFromPi(llm, { images: (opts.inputs ?? ['text', 'image']).includes('image'), attachmentLines });
  const ours = context(leafId === undefined ? branch(session) : branch(session, leafId), opts);
  expect(fromModelMessages(ours as Any[])).toEqual(expected);
}

describe('fixtures: context and branch agree with pi', () => {
  for (const file of fixtureFiles().filter((f) => !PI_CANNOT_READ.has(f))) {
    test(file, () => {
      const bytes = readBytes(file);
      const text = new TextDecoder().decode(bytes);
      const session = parse(bytes, { file });
      const entries = piEntries(text);
      // v1 files get fresh random ids from pi's migration, so pi is left on its own leaf (the last
      // record, which equals ours there: every migrated record has an id). Otherwise both use ours.
      const leaf = session.version < 2 ? undefined : session.leafId;
      const last = entries.at(-1);
      if (session.version >= 2 && typeof last?.id === 'string') expect(session.leafId, 'leaf = last record (pi)').toBe(last.id);
      compareContext(session, entries, leaf);
      compareContext(session, entries, leaf, { inputs: ['text'] });
      if (session.version >= 2) {
        for (const l of leaves(session).slice(-8)) compareContext(session, entries, l.id as string);
      }
    });
  }

  // pi's own tree walk, through a SessionManager opened on a copy of each v3 pi-readable file.
  for (const file of fixtureFiles().filter((f) => !PI_CANNOT_READ.has(f) && !f.includes('/omp/'))) {
    test(`branch of every entry: ${file}`, () => {
      const session = parse(readBytes(file));
      if (session.version < 3) return; // pi rewrites v1/v2 with fresh ids on open; compared by context above
      const copy = join(tmp, file.replace(/\//g, '_'));
      copyFileSync(join(ROOT, file), copy);
      const sm = SessionManager.open(copy, tmp);
      // Display title of a pi file = pi's session name (latest session_info; §0.5.4), else none.
      if (session.header?.title === undefined) expect(displayTitle(session)).toBe(sm.getSessionName() ?? null);
      const ids = [...session.byId.keys()];
      for (const id of ids.length > 400 ? ids.filter((_, i) => i % Math.ceil(ids.length / 400) === 0) : ids) {
        expect(
          branch(session, id).map((e) => e.id),
          id,
        ).toEqual(sm.getBranch(id).map((e) => e.id));
      }
    });
  }
});

describe("random trees written by pi's SessionManager", () => {
  test('branch of every entry and context of every leaf agree with pi', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 140 }), (seed, count) => {
        let t = Date.UTC(2026, 0, 1);
        const ops = randomPiOps(createRng(seed), count);
        const sm = applyPiOps(SessionManager.inMemory('/p'), ops, () => (t += 1000));
        const text = piFileText(sm);
        const session = parse(text);
        const entries = sm.getEntries() as Any[];
        expect(session.problems.filter((p) => p.severity === 'error')).toEqual([]);
        expect(session.leafId).toBe(entries.at(-1)?.id ?? null);
        expect(displayTitle(session)).toBe(sm.getSessionName() ?? null);
        for (const e of entries) expect(branch(session, e.id).map((x) => x.id)).toEqual(sm.getBranch(e.id).map((x) => x.id));
        const targets = new Set<string | undefined>([undefined, ...leaves(session).map((l) => l.id as string)]);
        for (const id of targets) {
          compareContext(session, entries, id);
          if (seed % 3 === 0) compareContext(session, entries, id, { inputs: ['text'] });
        }
      }),
      { numRuns: RUNS, seed: Number(process.env.FIDELITY_SEED ?? 424242) },
    );
  }, 300_000);

  test("a session read back from pi's file on disk gives the same context as in memory", () => {
    let t = Date.UTC(2026, 0, 1);
    const sm = applyPiOps(SessionManager.inMemory('/p'), randomPiOps(createRng(77), 200), () => (t += 1000));
    const file = join(tmp, 'roundtrip.jsonl');
    writeFileSync(file, piFileText(sm));
    const reopened = SessionManager.open(file, tmp);
    const session = parse(piFileText(sm));
    expect(branch(session).map((e) => e.id)).toEqual(reopened.getBranch().map((e) => e.id));
    compareContext(session, reopened.getEntries() as Any[], undefined);
  });
});

describe('focused differences (each names one §0.3 rule)', () => {
  const run = (ops: Parameters<typeof applyPiOps>[1]) => {
    let t = Date.UTC(2026, 0, 1);
    const sm = applyPiOps(SessionManager.inMemory('/p'), ops, () => (t += 1000));
    return { session: parse(piFileText(sm)), entries: sm.getEntries() as Any[] };
  };

  test('an empty thinking part without a signature is sent as an (empty) reasoning part (§0.3.5: "Thinking parts go as reasoning parts")', () => {
    const { session, entries } = run([
      { op: 'user', text: 'hi' },
      {
        op: 'assistant',
        parts: [
          { kind: 'thinking', text: '' },
          { kind: 'text', text: 'hello' },
        ],
        stopReason: 'stop',
      },
    ]);
    compareContext(session, entries, undefined);
  });

  test('§0.3.4: an aborted turn with text and a tool call is kept and its call answered "aborted"', () => {
    const { session, entries } = run([
      { op: 'user', text: 'go' },
      {
        op: 'assistant',
        parts: [
          { kind: 'text', text: 'working' },
          { kind: 'toolCall', name: 'bash', args: { c: 1 } },
        ],
        stopReason: 'aborted',
        errorMessage: 'Request was aborted',
      },
      { op: 'user', text: 'stop' },
    ]);
    compareContext(session, entries, undefined);
    const ctx = context(branch(session)) as Any[];
    expect(ctx.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(ctx[2].content[0].output).toEqual({ type: 'error-text', value: 'aborted' });
  });

  test('§0.3.3: empty error, thinking-only and retryRecovery turns are dropped; image-only becomes "(made a picture)"', () => {
    const img = { data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    const { session, entries } = run([
      { op: 'user', text: 'go' },
      { op: 'assistant', parts: [], stopReason: 'error', errorMessage: 'x' },
      { op: 'assistant', parts: [{ kind: 'thinking', text: 'hmm', signature: 'c2ln' }], stopReason: 'aborted' },
      { op: 'assistant', parts: [{ kind: 'text', text: 'partial' }], stopReason: 'error', retryRecovery: 'recovered' },
      { op: 'assistant', parts: [{ kind: 'image', ...img }], stopReason: 'stop' },
    ]);
    compareContext(session, entries, undefined);
    const ctx = context(branch(session)) as Any[];
    expect(ctx).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'text', text: '(made a picture)' }] },
    ]);
  });
});

describe('structurally damaged files (pi can still read them)', () => {
  // Drop, duplicate, shuffle and reparent entry lines, tear the tail: both readers must still
  // agree (leaf given as ours, since an id-less last record is where §0.2.1 differs). Inputs on
  // which pi hangs (a parent cycle) are skipped.
  const bases = [
    'fixtures/pi/pi-scripted.jsonl',
    'fixtures/pi/pi-random-202.jsonl',
    'fixtures/synthetic/pi-branchy-200kb.jsonl',
    'fixtures/synthetic/rho-300kb.jsonl',
  ].map((f) => new TextDecoder().decode(readBytes(f)).split('\n').filter(Boolean));
  type Damage = { kind: 'drop' | 'dup' | 'swap' | 'reparent' | 'tear'; i: number; j: number };
  const damage = fc.record({ kind: fc.constantFrom('drop', 'dup', 'swap', 'reparent', 'tear') as fc.Arbitrary<Damage['kind']>, i: fc.nat(), j: fc.nat() });

  test('context agrees with pi after damage', () => {
    fc.assert(
      fc.property(fc.nat({ max: bases.length - 1 }), fc.array(damage, { minLength: 1, maxLength: 5 }), (b, ds) => {
        const lines = bases[b].slice();
        let torn = false;
        for (const d of ds) {
          const n = lines.length - 1; // line 0 (the header) stays in place
          if (n < 2) break;
          const i = 1 + (d.i % n),
            j = 1 + (d.j % n);
          if (d.kind === 'drop') lines.splice(i, 1);
          else if (d.kind === 'dup') lines.splice(j, 0, lines[i]);
          else if (d.kind === 'swap') [lines[i], lines[j]] = [lines[j], lines[i]];
          else if (d.kind === 'tear') {
            lines[n] = lines[n].slice(0, Math.max(1, lines[n].length >> 1));
            torn = true;
          } else {
            const e = JSON.parse(lines[i]);
            const target = JSON.parse(lines[j]);
            e.parentId = d.j % 5 === 0 ? 'gone0000' : (target.id ?? null);
            lines[i] = JSON.stringify(e);
          }
          if (torn) break;
        }
        const text = lines.join('\n') + (torn ? '' : '\n');
        const session = parse(text);
        fc.pre(!session.problems.some((p) => p.code === 'cycle'));
        compareContext(session, piEntries(text), session.leafId);
        for (const l of leaves(session).slice(-3)) compareContext(session, piEntries(text), l.id as string);
      }),
      { numRuns: RUNS, seed: Number(process.env.FIDELITY_SEED ?? 5150) },
    );
  }, 300_000);
});
