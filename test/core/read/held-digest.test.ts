// The digest kept beside a held session (core read/held-digest.ts): after each entry appended at the
// leaf it is the digest of the whole file's bytes read from scratch (and the one `digestHeld` reads
// through the held session); entries appended at another entry are refused (null).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  append,
  assistant,
  createHeldDigest,
  custom,
  digestHeld,
  type EntryBody,
  modelChange,
  openSession,
  parse,
  toolResult,
  user,
  withLeaf,
} from '../../../src/core/index.ts';
import { digestSession } from '../../../src/core/read/digest.ts';

const realDir = new URL('../../../fixtures/real/', import.meta.url);
const realFiles = readdirSync(realDir).filter((f) => f.endsWith('.jsonl'));

let n = 0;
const deps = { now: () => new Date(Date.UTC(2026, 4, 1, 12, n)), randomId: () => `e${(++n).toString(16).padStart(7, '0')}` };

const usage = (k: number) => ({ inputTokens: 100 + k, outputTokens: 10 + k, cost: { input: 0.001 * k, output: 0.0003, total: 0.001 * k + 0.0003 } });
// One of each kind of entry the digest reads: messages with usage and models, a model change, a name, an error.
const BODIES: EntryBody[] = [
  user('Fix the tide table parser'),
  assistant({
    text: 'Reading it',
    toolCalls: [{ id: 'c1', name: 'read', arguments: { path: 'tide.ts' } }],
    usage: usage(1),
    stopReason: 'toolUse',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
  }),
  toolResult('c1', 'read', 'no such file', { isError: true }),
  modelChange('openai:gpt-5'),
  assistant({ text: 'Done', usage: usage(2), stopReason: 'stop', provider: 'openai', model: 'gpt-5' }),
  { type: 'session_info', name: 'Tide tables' },
  custom('notice', 'compacted soon'),
  assistant({ text: 'More', usage: usage(3), stopReason: 'stop', provider: 'anthropic', model: 'claude-opus-4' }),
];

describe('a held digest follows appends at the leaf', () => {
  for (const name of realFiles.slice(0, 6)) {
    test(`${name}: after each append, the digest of the file read from scratch`, async () => {
      const original = new Uint8Array(readFileSync(new URL(name, realDir)));
      const parsed = parse(original);
      if (!parsed.isSession || parsed.version < 2) return;
      let session = openSession(parsed, deps);
      const held = createHeldDigest(session);
      const scanned = (await digestSession([original])).digest;
      const known = { problems: scanned.problems, agent: scanned.agent };
      const parts: Uint8Array[] = [original];
      for (const body of BODIES) {
        const r = append(session, body);
        session = r.session;
        parts.push(r.bytes);
        const kept = held.appended(session, known, [r.entry]);
        expect(kept).toEqual(digestHeld(session, known, [r.entry]));
        const whole = (await digestSession(parts)).digest;
        // The file's own scan: its problems and first problem are the held session's known ones.
        expect({ ...kept, problems: whole.problems, firstProblem: whole.firstProblem }).toEqual(whole);
      }
    });
  }

  test('entries appended at another entry than the leaf are refused', () => {
    const parsed = parse(new Uint8Array(readFileSync(new URL(realFiles[0], realDir))));
    let session = openSession(parsed, deps);
    const held = createHeldDigest(session);
    const known = { problems: 0, agent: null };
    const first = session.entries.find((e) => typeof e.id === 'string')!;
    session = withLeaf(session, String(first.id));
    const r = append(session, user('a branch from the start'));
    expect(held.appended(r.session, known, [r.entry])).toBeNull();
  });
});
