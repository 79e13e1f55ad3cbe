/**
 * Session files written by pi's own SessionManager (on disk, in a temp dir, exactly as pi writes
 * them), then made reproducible: pi's random entry ids, its UUIDv7 session id and wall-clock
 * timestamps are replaced by values derived from their order (every reference is remapped too),
 * keeping pi's key order and bytes otherwise.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { applyPiOps, type PiOp } from './pi-ops.ts';
import { createRng } from './prng.ts';
import { randomPiOps } from './random-ops.ts';

const T0 = Date.UTC(2026, 0, 3, 12, 0, 0);

/** Writes `ops` through a disk-backed SessionManager and returns pi's file, made deterministic. */
export function writeWithPi(ops: PiOp[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'pi-fixture-'));
  try {
    let t = T0;
    const sm = applyPiOps(SessionManager.create('/home/dev/pi-project', dir), ops, () => (t += 1000));
    const file = sm.getSessionFile();
    if (!file) throw new Error('pi wrote no file');
    return makeDeterministic(readFileSync(file, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Replaces ids, the session id and ISO timestamps by order-derived values. */
export function makeDeterministic(text: string): string {
  const lines = text.split('\n').filter((l) => l.length > 0);
  const idMap = new Map<string, string>();
  const mapId = (v: unknown): unknown => {
    if (typeof v !== 'string') return v;
    let m = idMap.get(v);
    if (!m) {
      m = (0x10000000 + idMap.size).toString(16);
      idMap.set(v, m);
    }
    return m;
  };
  const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  for (const r of records) if (r.type !== 'session' && typeof r.id === 'string') mapId(r.id);
  return (
    records
      .map((r, i) => {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(r)) {
          if (r.type === 'session' && k === 'id') out[k] = '01a22bfc-0000-7000-8000-00000000f00d';
          else if (k === 'timestamp' && typeof v === 'string') out[k] = new Date(T0 + i * 1000).toISOString();
          else if ((k === 'id' || k === 'parentId' || k === 'targetId') && typeof v === 'string') out[k] = mapId(v);
          else if ((k === 'firstKeptEntryId' || k === 'fromId') && typeof v === 'string' && idMap.has(v)) out[k] = idMap.get(v);
          else out[k] = v;
        }
        return JSON.stringify(out);
      })
      .join('\n') + '\n'
  );
}

/** The scripted scenario: a bit of everything in a readable order. */
function scriptedOps(): PiOp[] {
  const img = { data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', mimeType: 'image/png' };
  return [
    { op: 'modelChange', model: 0 },
    { op: 'thinkingLevel', level: 'high' },
    { op: 'user', text: 'Read src/a.ts and fix the bug', images: [img] },
    {
      op: 'assistant',
      parts: [
        { kind: 'thinking', text: 'Let me read it.', signature: 'c2ln' },
        { kind: 'toolCall', name: 'read', args: { path: 'src/a.ts' } },
        { kind: 'toolCall', name: 'bash', args: { command: 'npm test' } },
      ],
      stopReason: 'toolUse',
    },
    { op: 'toolResults', answer: 0, text: 'export const a = 1;', isError: false, images: [img] },
    { op: 'toolResults', answer: 0, text: 'FAIL a.test.ts', isError: true, extraText: '1 failed' },
    {
      op: 'assistant',
      parts: [
        { kind: 'text', text: 'Found it; editing.' },
        { kind: 'toolCall', name: 'edit', args: { path: 'src/a.ts' } },
      ],
      stopReason: 'aborted',
      errorMessage: 'Request was aborted',
    },
    { op: 'user', text: 'Stop, try another way', asString: true },
    { op: 'assistant', parts: [], stopReason: 'error', errorMessage: '429 rate limited' },
    { op: 'assistant', parts: [{ kind: 'thinking', text: 'hmm' }], stopReason: 'aborted' },
    {
      op: 'assistant',
      parts: [
        { kind: 'thinking', text: '', signature: 'b3BhcXVl', redacted: true },
        { kind: 'text', text: 'Done differently.' },
      ],
      stopReason: 'stop',
    },
    { op: 'bash', command: 'git status', output: 'clean', exitCode: 0, cancelled: false, truncated: false },
    { op: 'bash', command: 'npm run big', output: 'lots', exitCode: 2, cancelled: false, truncated: true, fullOutputPath: '/tmp/full.log' },
    { op: 'bash', command: 'secret', output: 'hidden', exitCode: 0, cancelled: false, truncated: false, exclude: true },
    { op: 'customMessage', customType: 'rho.notice', content: 'Build finished', display: true },
    {
      op: 'customMessage',
      customType: 'note',
      content: [
        { kind: 'text', text: 'with a picture' },
        { kind: 'image', ...img },
      ],
      display: false,
    },
    { op: 'custom', customType: 'todo', data: { items: ['a'] } },
    { op: 'label', pick: 2, label: 'start' },
    { op: 'sessionInfo', name: 'Bug hunt' },
    { op: 'compaction', summary: 'We fixed the bug in src/a.ts.', pick: 7, tokensBefore: 50000 },
    { op: 'user', text: 'And now?' },
    { op: 'assistant', parts: [{ kind: 'text', text: 'All good.' }], stopReason: 'stop' },
    { op: 'branch', pick: 3 },
    { op: 'user', text: 'Alternative branch question' },
    { op: 'assistant', parts: [{ kind: 'text', text: 'Alternative answer.' }], stopReason: 'stop' },
    { op: 'branchWithSummary', pick: 21, summary: 'Tried an alternative; abandoned.' },
    { op: 'user', text: 'Back on the main line' },
    {
      op: 'assistant',
      parts: [
        { kind: 'text', text: 'Welcome back.' },
        { kind: 'toolCall', name: 'read', args: { path: 'b' } },
      ],
      stopReason: 'toolUse',
    },
  ];
}

/** name → pi-written file text, for fixtures/pi/. */
export function piFixtureFiles(): Record<string, string> {
  const files: Record<string, string> = { 'pi-scripted': writeWithPi(scriptedOps()) };
  for (const [seed, n] of [
    [101, 60],
    [202, 150],
    [303, 400],
  ] as const) {
    // A leading assistant op makes pi flush early, as a real session does after the first reply.
    files[`pi-random-${seed}`] = writeWithPi(randomPiOps(createRng(seed), n));
  }
  files['pi-compactions'] = writeWithPi([
    { op: 'user', text: 'one' },
    { op: 'assistant', parts: [{ kind: 'text', text: 'r1' }], stopReason: 'stop' },
    { op: 'user', text: 'two' },
    { op: 'assistant', parts: [{ kind: 'text', text: 'r2' }], stopReason: 'stop' },
    { op: 'compaction', summary: 'first summary', pick: 2, tokensBefore: 100 },
    { op: 'user', text: 'three' },
    { op: 'assistant', parts: [{ kind: 'text', text: 'r3' }], stopReason: 'stop' },
    { op: 'compaction', summary: 'second summary, kept id not on the branch', pick: 0, tokensBefore: 200, unknownFirstKept: true },
    { op: 'user', text: 'four' },
    { op: 'assistant', parts: [{ kind: 'text', text: 'r4' }], stopReason: 'stop' },
    { op: 'resetLeaf' },
    { op: 'user', text: 'a new root after resetLeaf' },
    { op: 'assistant', parts: [{ kind: 'text', text: 'r5' }], stopReason: 'stop' },
  ]);
  return files;
}
