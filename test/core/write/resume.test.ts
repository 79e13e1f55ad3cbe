// The resume command: pi's own path for a session (checked against the paths real files had in
// pi's sessions folder, SOURCES.md), omp's own command, and only the command of the agent that
// wrote the file (core agentMark over every record, as the library scan does).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { addAgentMark, agentMark, append, newSession, parse, resumeCommands, user, type Agent } from '../../../src/core/index.ts';
import { ompResumeCommand, piResumeCommand, piSessionDir } from '../../../src/core/write/resume.ts';
import { digestSession } from '../../../src/core/read/digest.ts';

const fixtures = new URL('../../../fixtures/', import.meta.url);
const bytesOf = (path: string) => new Uint8Array(readFileSync(new URL(path, fixtures)));
const agentOf = (bytes: Uint8Array): Agent | null =>
  parse(bytes).records.reduce<Agent | null>((a, r) => addAgentMark(a, agentMark(r.value as Record<string, unknown>, r.kind)), null);

describe('pi resume command', () => {
  test('names the file where pi kept it: the paths of real files in ~/.pi/agent/sessions (SOURCES.md)', () => {
    const sources = readFileSync(new URL('real/SOURCES.md', fixtures), 'utf8');
    let checked = 0;
    for (const row of sources.split('\n')) {
      // Rows whose source is a file directly in a pi project folder: `.pi/agent/sessions/<dir>/<file>`.
      const m = /^\| `([^`]+)` \|.*`\.pi\/agent\/sessions\/(--[^/`]+--\/[^/`]+\.jsonl)`/.exec(row);
      if (!m) continue;
      const s = parse(bytesOf(`real/${m[1]}`));
      const h = s.header!;
      const command = piResumeCommand({ id: String(h.id), cwd: String(h.cwd), created: String(h.timestamp) });
      expect(command, m[1]).toBe(`pi --session ~/.pi/agent/sessions/${m[2]}`);
      checked++;
    }
    expect(checked).toBe(8);
  });

  test("pi's cwd folder rule: leading separator dropped, / \\ : become -", () => {
    expect(piSessionDir('/home/u/proj')).toBe('--home-u-proj--');
    expect(piSessionDir('C:\\Users\\me\\code')).toBe('--C--Users-me-code--');
    expect(piSessionDir('/data/data/com.termux/files/home')).toBe('--data-data-com.termux-files-home--');
  });

  test('quotes what the shell would split, keeps ~/ outside the quotes, falls back to the id', () => {
    const c = piResumeCommand({ id: 'abc', cwd: "/home/u/my project's", created: '2026-01-02T03:04:05.678Z' });
    expect(c).toBe(`pi --session ~/'.pi/agent/sessions/--home-u-my project'\\''s--/2026-01-02T03-04-05-678Z_abc.jsonl'`);
    expect(piResumeCommand({ id: 'abc', cwd: '', created: '2026-01-02T03:04:05.678Z' })).toBe('pi --session abc');
    expect(piResumeCommand({ id: 'abc', cwd: '/p', created: '' })).toBe('pi --session abc');
  });
});

describe('omp resume command', () => {
  test("omp's own form: back into the cwd, then --resume with the id", () => {
    expect(ompResumeCommand({ id: '01a2', cwd: "/home/u/it's" })).toBe(`cd '/home/u/it'\\''s' && omp --allow-home --resume 01a2`);
    expect(ompResumeCommand({ id: '01a2', cwd: '' })).toBe('omp --resume 01a2');
  });
});

describe('the agent that wrote a file, and only its command', () => {
  test('every real file was written by pi (a bare header says nothing); every omp fixture by omp', () => {
    for (const name of readdirSync(new URL('real/', fixtures)).filter((n) => n.endsWith('.jsonl'))) {
      // A v3 header alone is the same from both tools: nothing tells them apart, both commands are offered.
      const expected = name === 'pi-messenger-crew-planner-header-only.jsonl' ? null : 'pi';
      expect(agentOf(bytesOf(`real/${name}`)), name).toBe(expected);
    }
    for (const name of readdirSync(new URL('pi/', fixtures)).filter((n) => n.endsWith('.jsonl'))) expect(agentOf(bytesOf(`pi/${name}`)), name).toBe('pi');
    for (const name of ['omp-shapes.jsonl', 'omp-slotless.jsonl', 'omp-title-slot-empty.jsonl', 'omp-generated-400kb.jsonl'])
      expect(agentOf(bytesOf(`omp/${name}`)), name).toBe('omp');
  });

  test('the library scan finds the same writer', async () => {
    const chunks = async function* (b: Uint8Array) {
      yield b;
    };
    expect((await digestSession(chunks(bytesOf('real/frinfo702-dotfiles-fork-child.jsonl')))).digest.agent).toBe('pi');
    expect((await digestSession(chunks(bytesOf('omp/omp-shapes.jsonl')))).digest.agent).toBe('omp');
  });

  test("a file Rho wrote carries both tools' keys: both commands are offered", () => {
    let t = Date.UTC(2026, 0, 1);
    let n = 0;
    const s = newSession({
      model: 'anthropic:claude-sonnet-4-5',
      cwd: '/p',
      now: () => new Date((t += 1000)),
      randomId: () => (++n).toString(16).padStart(8, '0'),
    });
    expect(agentOf(append(s, user('hello')).bytes)).toBeNull();
  });

  test('offers only the writer’s command', () => {
    const t = { id: 'x', cwd: '/p', created: '2026-01-02T03:04:05.678Z' };
    expect(resumeCommands({ ...t, agent: 'pi' }).map((c) => c.agent)).toEqual(['pi']);
    expect(resumeCommands({ ...t, agent: 'omp' }).map((c) => c.agent)).toEqual(['omp']);
    expect(resumeCommands({ ...t, agent: null }).map((c) => c.agent)).toEqual(['pi', 'omp']);
  });
});
