// What our writer produces is read by pi as we read it (session-format.md §0.4, §8.3): random
// sessions built with the core's builders and `append` are opened by pi's SessionManager without
// being rewritten, give the same branch and (after the §0.3 differences) the same context, carry a
// model_change pi understands, are listed and continued by pi, and read back as `append` returned.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSessionContext, convertToLlm, parseSessionEntries, SessionManager } from '@mariozechner/pi-coding-agent';
import fc from 'fast-check';
import { afterAll, expect, test, vi } from 'vitest';
import {
  append,
  assistant,
  branch,
  compaction,
  context,
  custom,
  modelChange,
  newSession,
  parse,
  serialize,
  toolResult,
  user,
  type EntryBody,
  type Session,
} from '../../../src/core/index.ts';
import { createRng } from '../../gen/prng.ts';
import { paragraph, sentence } from '../../gen/text.ts';
import { expectedFromPi, fromModelMessages } from './normalize.ts';
import { piPath, summarizedAttachments } from './pi-path.ts';

// The machine is shared: a test that waits for CPU must not fail on vitest's 5 s default.
vi.setConfig({ testTimeout: 120_000 });

const RUNS = Number(process.env.FIDELITY_RUNS ?? 60) >> 1;
const tmp = mkdtempSync(join(tmpdir(), 'fidelity-write-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Any = Record<string, any>;
const SPECS = ['anthropic:claude-sonnet-4-5', 'openai_codex:gpt-5', 'openrouter:anthropic/claude-sonnet-4.5'];

/** A random session written by our core; returns the file bytes and what append returned. */
function writeRandom(seed: number, steps: number): { bytes: Uint8Array; returned: Any[]; session: Session } {
  const rng = createRng(seed);
  let clock = Date.UTC(2026, 2, 1);
  let session = newSession({ model: rng.pick(SPECS), cwd: '/home/dev/rho', now: () => new Date((clock += 1000)), randomId: () => rng.hex(8) });
  const chunks: Uint8Array[] = [];
  const returned: Any[] = [];
  let pending: { id: string; name: string }[] = [];
  let n = 0;
  const push = (body: EntryBody) => {
    const r = append(session, body);
    session = r.session;
    chunks.push(r.bytes);
    returned.push(r.entry);
  };
  push(user(rng.chance(0.2) ? '🎉'.repeat(90) + '\nsecond line' : sentence(rng)));
  for (let i = 0; i < steps; i++) {
    const k = rng.int(0, 9);
    if (k <= 2) {
      const attachments = rng.chance(0.3)
        ? [
            {
              kind: 'image' as const,
              name: `p&"<${rng.hex(2)}.png`,
              path: `/w/p${rng.hex(2)}.png`,
              mimeType: 'image/png',
              about: sentence(rng, 4),
              image: { mimeType: 'image/png', data: rng.bytes(rng.int(1, 200)) },
            },
          ]
        : undefined;
      push(user(rng.chance(0.1) && attachments ? '' : paragraph(rng, 1), { attachments, steering: rng.chance(0.1) }));
    } else if (k <= 5) {
      const toolCalls = rng.chance(0.5)
        ? Array.from({ length: rng.int(1, 2) }, () => ({ id: `call_${n++}`, name: rng.pick(['read', 'bash']), arguments: { p: rng.int(0, 9) } }))
        : [];
      const stopReason = rng.pick(['stop', 'stop', 'toolUse', 'error', 'aborted', 'length'] as const);
      push(
        assistant({
          text: rng.chance(0.8) ? sentence(rng) : undefined,
          thinking: rng.chance(0.4) ? sentence(rng) : undefined,
          thinkingSignature: rng.chance(0.5) ? rng.hex(20) : undefined,
          toolCalls,
          stopReason,
          error: stopReason === 'error' ? 'boom' : undefined,
          spec: rng.pick(SPECS),
          api: 'anthropic-messages',
          images: rng.chance(0.1) ? [{ mimeType: 'image/png', data: rng.bytes(30) }] : undefined,
          usage: { inputTokens: rng.int(0, 999), outputTokens: rng.int(0, 99) } as never,
        }),
      );
      pending = toolCalls.map((c) => ({ id: c.id, name: c.name }));
    } else if (k <= 7 && pending.length > 0) {
      const c = pending.shift()!;
      push(
        toolResult(c.id, c.name, paragraph(rng, 1), {
          isError: rng.chance(0.2),
          details: rng.chance(0.5) ? { x: 1 } : undefined,
          images: rng.chance(0.2) ? [{ mimeType: 'image/jpeg', data: rng.bytes(40) }] : undefined,
        }),
      );
    } else if (k === 8) {
      push(rng.chance(0.5) ? custom(rng.pick(['notice', 'error', 'aside'] as const), sentence(rng)) : modelChange(rng.pick(SPECS)));
    } else {
      const ids = branch(session).map((e) => e.id as string);
      push(compaction(paragraph(rng, 2), rng.chance(0.9) ? rng.pick(ids) : 'nowhere1', rng.int(1000, 9000), rng.int(100, 900)));
    }
  }
  const size = chunks.reduce((s, c) => s + c.length, 0);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes, returned, session };
}

test('pi reads what we write as we do', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 80 }), (seed, steps) => {
      const { bytes, returned } = writeRandom(seed, steps);
      const text = new TextDecoder().decode(bytes);
      const parsed = parse(bytes);

      // Our own reading: no problems, lossless, and each entry reads back as append returned it.
      expect(parsed.problems).toEqual([]);
      expect(Buffer.from(serialize(parsed, bytes)).equals(Buffer.from(bytes))).toBe(true);
      expect(parsed.entries.slice(-returned.length)).toEqual(returned);
      expect(Buffer.byteLength(text.slice(0, text.indexOf('\n')))).toBeLessThan(512); // pi's header window (§1.2)

      // pi opens it without rewriting it, walks the same branch, and restores our model.
      const file = join(tmp, `w${seed}.jsonl`);
      writeFileSync(file, bytes);
      const sm = SessionManager.open(file, tmp);
      expect(readFileSync(file).equals(Buffer.from(bytes))).toBe(true);
      expect(sm.getBranch().map((e) => e.id)).toEqual(branch(parsed).map((e) => e.id));
      const entries = (parseSessionEntries(text) as Any[]).filter((e) => e.type !== 'session');
      const pi = buildSessionContext(entries as never);
      const lastModel = [...branch(parsed)]
        .reverse()
        .find((e) => e.type === 'model_change' || (e.type === 'message' && (e.message as Any).role === 'assistant'))!;
      const want =
        lastModel.type === 'model_change'
          ? { provider: lastModel.provider, modelId: lastModel.modelId }
          : { provider: (lastModel.message as Any).provider, modelId: (lastModel.message as Any).model };
      expect(pi.model).toEqual(want);
      expect(pi.model?.provider).toBeTruthy();

      // Same context after the §0.3 differences.
      const expected = expectedFromPi(convertToLlm(pi.messages) as Any[], { attachmentLines: summarizedAttachments(piPath(entries)) });
      expect(fromModelMessages(context(branch(parsed)) as Any[])).toEqual(expected);
    }),
    { numRuns: RUNS, seed: Number(process.env.FIDELITY_SEED ?? 31337) },
  );
}, 300_000);

test('pi lists a session we wrote and continues it as the most recent', async () => {
  const dir = mkdtempSync(join(tmp, 'list-'));
  const { bytes, session } = writeRandom(4242, 20);
  const header = session.header!;
  const name = `${String(header.timestamp).replace(/[:.]/g, '-')}_${header.id}.jsonl`;
  writeFileSync(join(dir, name), bytes);
  const listed = await SessionManager.list('/home/dev/rho', dir);
  expect(listed.map((s) => s.id)).toEqual([header.id]);
  expect(listed[0].firstMessage).not.toBe('(no messages)');
  const sm = SessionManager.continueRecent('/home/dev/rho', dir);
  expect(sm.getSessionFile()).toBe(join(dir, name));
  expect(readFileSync(join(dir, name)).equals(Buffer.from(bytes))).toBe(true);
});
