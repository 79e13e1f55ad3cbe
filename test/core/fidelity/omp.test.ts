// omp shapes (session-format.md §1–§3) read by the core: the generated fixtures in fixtures/omp/
// (built by test/gen/omp-shapes.ts and the omp flavour of test/gen/session.ts) checked against
// what §0 says our core does with each construct.
import { describe, expect, test, vi } from 'vitest';
import { branch, compacted, context, displayTitle, model, parse, type ModelMessage } from '../../../src/core/index.ts';
import { titleSlot } from '../../gen/session.ts';
import { physicalLines, readBytes } from './support.ts';

// The machine is shared: a test that waits for CPU must not fail on vitest's 5 s default.
vi.setConfig({ testTimeout: 120_000 });

const BLOB = 'blob:sha256:' + '3f'.repeat(32);
const open = (name: string) => parse(readBytes(`fixtures/omp/${name}.jsonl`), { file: name });
const texts = (msgs: ModelMessage[]) =>
  msgs.flatMap((m) =>
    typeof m.content === 'string'
      ? [m.content]
      : (m.content as { type: string; text?: string }[]).filter((p) => p.type === 'text').map((p) => p.text as string),
  );

describe('title slot (§1.3, §0.1.3)', () => {
  test('the generator writes slots of exactly 256 bytes, cut on code points', () => {
    for (const title of ['', 'short', 'ü'.repeat(300), '🎉'.repeat(100), 'x'.repeat(400)]) {
      const line = titleSlot(title, '2026-01-01T00:00:00.000Z', 'user');
      expect(new TextEncoder().encode(line + '\n').length).toBe(256);
      const kept = JSON.parse(line).title as string;
      expect(title.startsWith(kept)).toBe(true);
      expect(kept).not.toMatch(/[\ud800-\udbff]$/);
    }
    // §1.3: a 400-char ASCII title keeps 158 chars with source "user" (verified against omp).
    expect(JSON.parse(titleSlot('x'.repeat(400), '2026-11-30T10:23:52.452Z', 'user')).title).toHaveLength(158);
  });

  test('a slot is kept as a record without an id, its title applied to the header', () => {
    for (const name of ['omp-shapes', 'omp-title-slot-long', 'omp-title-slot-empty', 'omp-generated-400kb']) {
      const s = open(name);
      const bytes = readBytes(`fixtures/omp/${name}.jsonl`);
      expect(physicalLines(bytes)[0].end + 1).toBe(256);
      expect(s.records[0].kind).toBe('title');
      expect(s.titleSlot).not.toBeNull();
      expect(s.records[1].kind).toBe('header');
      expect(s.problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(s.entries.some((e) => e.type === 'title')).toBe(false);
    }
    const shapes = open('omp-shapes');
    expect(shapes.header?.title).toBe('Port the parser to streaming 🚀');
    expect(displayTitle(shapes)).toBe('Port the parser to streaming 🚀');
    const long = open('omp-title-slot-long');
    expect(displayTitle(long)?.startsWith('Überarbeitung des Parsers')).toBe(true);
    expect(long.header?.title).toBe(long.titleSlot?.title);
  });

  test('an empty slot title deletes the stale header title', () => {
    const s = open('omp-title-slot-empty');
    expect(s.header?.title).toBeUndefined();
    expect(displayTitle(s)).toBeNull();
  });

  test('a slot-less omp file uses its header title; an invalid slot (v:2) is reported, not applied', () => {
    expect(displayTitle(open('omp-slotless'))).toBe('Header-only title');
    const bad = open('omp-invalid-slot');
    expect(bad.titleSlot).toBeNull();
    expect(bad.problems.some((p) => p.line === 1)).toBe(true);
    expect(displayTitle(bad)).toBe('Header-only title');
  });
});

describe('omp entries and messages (§0.2–§0.3, §0.5)', () => {
  const s = open('omp-shapes');
  const br = branch(s);

  test('model in effect: the last default-role model_change; smol and fallback roles ignored (§0.5.2)', () => {
    expect(model(br)).toBe('anthropic:claude-sonnet-4-5');
    expect(model(branch(open('omp-title-slot-long')))).toBe('openrouter:anthropic/claude-sonnet-4.5');
  });

  test('the latest compaction wins; its firstKeptEntryId is not on the branch, so nothing is kept', () => {
    const c = compacted(br);
    expect(c.compaction?.method).toBe('handoff');
    expect(c.kept).toEqual([]);
    expect(c.later.map((e) => e.type)).toEqual(['message', 'message']);
  });

  test('context: pi summary text, reset_boundary ignored, omp-only roles ignored', () => {
    const ctx = context(br);
    expect(texts(ctx)[0]).toBe(
      'The conversation history before this point was compacted into the following summary:\n\n<summary>\nHandoff: continue the streaming work.\n</summary>',
    );
    expect(texts(ctx).slice(1)).toEqual(['Last question', 'Last answer.']);
    // Without the compactions the reset boundary does not cut (§0.3.2: ignored).
    const before = br.slice(
      0,
      br.findIndex((e) => e.type === 'compaction'),
    );
    const all = texts(context(before));
    expect(all).toContain('Look at this screenshot');
    expect(all.join('\n')).not.toMatch(/developer note|legacy hook message|print\(1\)|let a = 1/);
  });

  test('retryRecovery turns are dropped, aborted turns with text kept, redactedThinking not sent (§0.3.3, §0.3.5)', () => {
    const before = br.slice(
      0,
      br.findIndex((e) => e.type === 'compaction'),
    );
    const ctx = context(before);
    const all = texts(ctx).join('\n');
    expect(all).not.toContain('Partial answer before the provider failed');
    expect(all).not.toContain('Superseded attempt');
    const assistants = ctx.filter((m) => m.role === 'assistant');
    expect(JSON.stringify(assistants)).not.toContain('ZW5jcnlwdGVk');
    expect(JSON.stringify(assistants)).toContain('Reading the image.');
  });

  test('assistant images never sent; image-only turn → "(made a picture)" (§0.3.5)', () => {
    const before = br.slice(
      0,
      br.findIndex((e) => e.type === 'compaction'),
    );
    const assistants = context(before).filter((m) => m.role === 'assistant');
    expect(JSON.stringify(assistants)).not.toContain(BLOB);
    expect(JSON.stringify(assistants)).not.toContain('"image"');
    expect(texts(assistants)).toContain('(made a picture)');
  });

  test('blob refs: resolved through resolveBlob, else the image note (§0.3.7)', () => {
    const before = br.slice(
      0,
      br.findIndex((e) => e.type === 'compaction'),
    );
    const unresolved = context(before);
    expect(JSON.stringify(unresolved)).not.toContain('blob:sha256:');
    const firstUser = unresolved.find((m) => m.role === 'user')!;
    expect(firstUser.content).toEqual([
      { type: 'text', text: 'Look at this screenshot' },
      { type: 'text', text: '(image omitted: model does not support images)' },
      { type: 'image', image: expect.any(String), mediaType: 'image/png' },
    ]);
    const resolved = context(before, { resolveBlob: (ref) => (ref === BLOB ? 'UkVTT0xWRUQ=' : null) });
    const json = JSON.stringify(resolved);
    expect(json).toContain('UkVTT0xWRUQ=');
    expect(json).not.toContain('blob:sha256:');
    const tool = resolved.find((m) => m.role === 'tool')!;
    expect(JSON.stringify(tool)).toContain('UkVTT0xWRUQ=');
  });

  test("custom_message with a blob image goes as a user message (pi's choice, §0.3.2)", () => {
    const before = br.slice(
      0,
      br.findIndex((e) => e.type === 'compaction'),
    );
    const ctx = context(before, { resolveBlob: () => 'QkxPQg==' });
    const diag = ctx.find((m) => m.role === 'user' && JSON.stringify(m).includes('error TS2304'))!;
    expect(diag.content).toEqual([
      { type: 'text', text: 'error TS2304' },
      { type: 'image', image: 'QkxPQg==', mediaType: 'image/png' },
    ]);
  });
});
