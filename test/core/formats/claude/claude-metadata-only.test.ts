// A real Claude Code file can hold one metadata record and no message yet: `teleported-from` is
// written when a session from Claude Code on the web is carried to the terminal. It is a Claude
// session: detected as one, converted to an empty pi session under the file's session id, and
// titled from what the record says.
import { expect, test } from 'vitest';
import { convertToPi, detectFormat } from '../../../../src/core/formats/index.ts';
import { createDigester } from '../../../../src/core/read/digest.ts';
import { parse } from '../../../../src/core/index.ts';

const SESSION = '3f2a9c1e-1111-4222-8333-944455556666';
const line = `${JSON.stringify({ type: 'teleported-from', remoteSessionId: 'session_01QpWx7Ze9Xk', branch: 'claude/fix-login-redirect', messageCount: 0 })}\n`;
const bytes = new TextEncoder().encode(line);

test('a file whose only line is teleported-from is a Claude Code session with no messages, titled by its branch', () => {
  expect(detectFormat(bytes)).toBe('claude-code');
  const c = convertToPi(bytes, 'claude-code', `/home/u/.claude/projects/-home-u-app/${SESSION}.jsonl`);
  expect(c.problems).toEqual([]);
  const s = parse(new TextDecoder().decode(c.bytes));
  expect(s.header?.id).toBe(SESSION);
  expect(s.entries.filter((e) => e.type === 'message')).toEqual([]);
  const d = createDigester();
  d.push(c.bytes);
  const digest = d.finish().digest;
  expect(digest.firstMessage).toBe('Carried from Claude Code on the web (branch claude/fix-login-redirect)');
  expect(digest.title).toBeNull();
});

test('a carried session that goes on: its first prompt names it, not the metadata', () => {
  const prompt = {
    type: 'user',
    uuid: 'u1',
    parentUuid: null,
    sessionId: SESSION,
    timestamp: '2026-11-30T10:00:00.000Z',
    cwd: '/home/u/app',
    message: { role: 'user', content: 'fix the login redirect' },
  };
  const more = new TextEncoder().encode(`${line}${JSON.stringify(prompt)}\n`);
  const c = convertToPi(more, 'claude-code', `${SESSION}.jsonl`);
  const d = createDigester();
  d.push(c.bytes);
  expect(d.finish().digest.firstMessage).toBe('fix the login redirect');
});
