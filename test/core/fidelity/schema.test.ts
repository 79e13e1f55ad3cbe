// Every output of `context` validates against the `ai` package's own ModelMessage schema
// (session-format.md §0.3: "Tests check them with the ai package's own message schema"), for every
// fixture, every leaf, every input option, omp blob refs resolved or not, PDFs attached, and for
// random pi-written trees and mutated files.
import { modelMessageSchema } from 'ai';
import { describe, expect, test, vi } from 'vitest';
import { branch, context, leaves, parse, type ContextOptions, type ModelMessage, type ParsedSession } from '../../../src/core/index.ts';
import { createRng } from '../../gen/prng.ts';
import { generateSessionText } from '../../gen/session.ts';
import { fixtureFiles, readBytes } from './support.ts';

// The machine is shared: a test that waits for CPU must not fail on vitest's 5 s default.
vi.setConfig({ testTimeout: 120_000 });

const OPTIONS: [string, ContextOptions][] = [
  ['default', {}],
  ['text only', { inputs: ['text'] }],
  ['blobs resolved', { resolveBlob: (ref) => (ref.endsWith('3f3f') ? 'iVBORw0KGgo=' : null) }],
  ['pdf', { inputs: ['text', 'image', 'pdf'], readAttachment: (p) => (p.includes('missing') ? null : new Uint8Array([37, 80, 68, 70, 45])), maxPdfBytes: 12 }],
];

/** Failures as readable strings (message index, role, first zod issue). */
function invalid(messages: ModelMessage[]): string[] {
  const bad: string[] = [];
  messages.forEach((m, i) => {
    const r = modelMessageSchema.safeParse(m);
    if (!r.success) bad.push(`#${i} ${m.role}: ${JSON.stringify(r.error.issues[0]).slice(0, 300)}`);
  });
  return bad;
}

function checkAllLeaves(session: ParsedSession, maxLeaves = 12): void {
  const targets = [
    session.leafId,
    ...leaves(session)
      .slice(-maxLeaves)
      .map((l) => l.id as string),
  ];
  for (const id of targets) {
    for (const [name, opts] of OPTIONS) {
      const ctx = context(branch(session, id), opts);
      expect(invalid(ctx), `${session.file ?? ''} leaf ${id} (${name})`).toEqual([]);
      expect(ctx.every((m) => m.role !== 'system')).toBe(true);
    }
  }
}

describe('context output is a valid AI SDK ModelMessage', () => {
  for (const file of fixtureFiles()) {
    test(file, () => {
      const bytes = readBytes(file);
      checkAllLeaves(parse(bytes, { file }), bytes.length > 500_000 ? 3 : 12);
    });
  }

  test('generated sessions with PDF attachments', () => {
    // Rho user messages with a PDF attachment (kind pdf), so the pdf option has something to pick.
    const text = generateSessionText({ seed: 5, targetBytes: 150_000, flavor: 'rho', imageBytes: [16, 200] });
    const header = text.slice(0, text.indexOf('\n') + 1);
    const rest = text
      .slice(header.length)
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const rng = createRng(5);
    for (const e of rest) {
      if (e.type === 'message' && e.message.role === 'user' && rng.chance(0.3)) {
        e.message.attachments = [
          { kind: 'pdf', name: 'spec.pdf', path: rng.chance(0.2) ? '/missing.pdf' : '/att/spec.pdf', mimeType: 'application/pdf', about: '3 pages' },
        ];
      }
    }
    const session = parse(header + rest.map((e) => JSON.stringify(e)).join('\n') + '\n', { file: 'rho-with-pdfs' });
    checkAllLeaves(session, 20);
    const withPdf = context(branch(session), OPTIONS[3][1]);
    expect(withPdf.some((m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((p) => p.type === 'file'))).toBe(true);
  });

  for (const flavor of ['pi', 'omp', 'rho'] as const) {
    test(`generated ${flavor} session, many seeds`, () => {
      for (let seed = 1; seed <= 6; seed++) {
        checkAllLeaves(
          parse(
            generateSessionText({ seed, targetBytes: 120_000, flavor, imageBytes: [16, 300], compactionEvery: 30_000, branchRate: 0.25, abortRate: 0.25 }),
            { file: `${flavor}-${seed}` },
          ),
          6,
        );
      }
    });
  }
});
