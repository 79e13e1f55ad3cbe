// Aggregation over index records: local days, subagents counted in their parent, CSV export.
import { describe, expect, test } from 'vitest';
import {
  cacheHitRate,
  costRecorded,
  createUsageCollector,
  projectsOf,
  csvField,
  SLICE_MS,
  summarizeUsage,
  toolErrorRate,
  usageCsv,
  usageRows,
  type UsageBucket,
  type UsageRecord,
} from '../../../src/core/index.ts';

/** A bucket: slice offset, model, turns, input, output, cacheRead, cacheWrite, tokens, cost, costed, calls, errors. */
const bucket = (
  slice: number,
  model: number,
  f: Partial<Record<'turns' | 'input' | 'output' | 'cacheRead' | 'cacheWrite' | 'cost' | 'costed' | 'calls' | 'errors', number>>,
): UsageBucket => {
  const input = f.input ?? 0;
  const output = f.output ?? 0;
  const cacheRead = f.cacheRead ?? 0;
  const cacheWrite = f.cacheWrite ?? 0;
  return [
    slice,
    model,
    f.turns ?? 1,
    input,
    output,
    cacheRead,
    cacheWrite,
    input + output + cacheRead + cacheWrite,
    f.cost ?? 0,
    f.costed ?? 0,
    f.calls ?? 0,
    f.errors ?? 0,
  ];
};
const sliceOf = (iso: string) => Date.parse(iso) / SLICE_MS;

/** The local day of a slice in a named time zone (what the page's local Date gives in that zone). */
const dayIn = (timeZone: string) => {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  return (slice: number) => f.format(new Date(slice * SLICE_MS));
};

// 23:45 UTC on 1 March and 00:15 UTC on 2 March: one day in Los Angeles (1 March), two in UTC,
// one in Kolkata (2 March, 05:15 and 05:45).
const nearMidnight: UsageRecord = {
  id: 'm',
  title: 'midnight',
  cwd: '/p',
  usage: {
    agent: 'pi',
    models: ['a/x'],
    start: sliceOf('2026-03-01T23:45:00Z'),
    branch: [bucket(0, 0, { input: 100, cost: 1, costed: 1 }), bucket(2, 0, { input: 10, cost: 0.5, costed: 1 })],
    other: [],
  },
};

describe('local days', () => {
  test.each([
    ['UTC', { '2026-03-01': 100, '2026-03-02': 10 }],
    ['Asia/Kolkata', { '2026-03-02': 110 }],
    ['America/Los_Angeles', { '2026-03-01': 110 }],
    ['Asia/Kathmandu', { '2026-03-02': 110 }],
  ])('%s', (zone, want) => {
    const report = summarizeUsage(usageRows([nearMidnight], { scope: 'all', dayOf: dayIn(zone) }));
    expect(Object.fromEntries([...report.days].map(([d, g]) => [d, g.input]))).toEqual(want);
  });

  test('a range keeps only its local days, and drops undated usage', () => {
    const undated: UsageRecord = {
      id: 'u',
      title: null,
      cwd: '/q',
      usage: { agent: 'pi', models: ['m'], start: 0, branch: [bucket(-1, 0, { input: 7 })], other: [] },
    };
    const all = summarizeUsage(usageRows([nearMidnight, undated], { scope: 'all', dayOf: dayIn('UTC') }));
    expect(all.undated.input).toBe(7);
    expect(all.total.input).toBe(117);
    const ranged = summarizeUsage(usageRows([nearMidnight, undated], { scope: 'all', dayOf: dayIn('UTC'), from: '2026-03-02', to: '2026-03-02' }));
    expect(ranged.total.input).toBe(10);
    expect(ranged.undated.input).toBe(0);
  });
});

describe('subagents', () => {
  const parent: UsageRecord = {
    id: 'parent',
    title: 'Parent',
    cwd: '/home/u/app',
    usage: { agent: 'pi', models: ['anthropic/claude'], start: 100, branch: [bucket(0, 0, { input: 5, cost: 0.25, costed: 1 })], other: [] },
  };
  const child: UsageRecord = {
    id: 'child',
    title: 'Child run',
    cwd: '/tmp/worktree',
    parentOf: 'parent',
    usage: { agent: 'omp', models: ['deepseek/v4'], start: 101, branch: [bucket(0, 0, { input: 50, cost: 1, costed: 1, calls: 4, errors: 1 })], other: [] },
  };
  const grandchild: UsageRecord = { ...child, id: 'grandchild', parentOf: 'child', cwd: '/elsewhere' };

  test("a child's cost counts in its parent's project and session, a grandchild's too", () => {
    const report = summarizeUsage(usageRows([child, parent, grandchild], { scope: 'branch', dayOf: dayIn('UTC') }));
    expect(report.bySession.map((g) => [g.key, g.cost, g.input])).toEqual([['parent', 2.25, 105]]);
    expect(report.projects.map((g) => [g.key, g.cost])).toEqual([['/home/u/app', 2.25]]);
    expect(report.sessions).toBe(1);
    // Models and agents stay the child's own.
    expect(Object.fromEntries(report.models.map((g) => [g.key, g.input]))).toEqual({ 'anthropic/claude': 5, 'deepseek/v4': 100 });
    expect(Object.fromEntries(report.agents.map((g) => [g.key, g.input]))).toEqual({ pi: 5, omp: 100 });
    expect(report.total.toolErrors).toBe(2);
  });

  test('a parent that is not stored, or a loop, leaves the session on its own', () => {
    const orphan = { ...child, parentOf: 'gone' };
    const loopA: UsageRecord = { ...child, id: 'a', parentOf: 'b' };
    const loopB: UsageRecord = { ...child, id: 'b', parentOf: 'a' };
    const report = summarizeUsage(usageRows([orphan, loopA, loopB], { scope: 'branch', dayOf: dayIn('UTC') }));
    expect(report.bySession.map((g) => g.key).sort()).toEqual(['a', 'b', 'child']);
  });
});

describe('variants', () => {
  // A shared copy brought back: its cwd had the home path redacted; it is kept as a variant of the original.
  const original: UsageRecord = { ...nearMidnight, id: 'orig', cwd: '/home/zanetta/work/app' };
  const copy: UsageRecord = { ...nearMidnight, id: 'orig~2', cwd: '[redacted: home-path]/work/app', variantOf: 'orig' };
  const copyOfCopy: UsageRecord = { ...copy, id: 'orig~3', variantOf: 'orig~2' };

  test("a variant is in its original's project (a variant of a variant too): one project, one row", () => {
    const records = [copy, original, copyOfCopy];
    expect(Object.fromEntries(projectsOf(records))).toEqual({ orig: original.cwd, 'orig~2': original.cwd, 'orig~3': original.cwd });
    const report = summarizeUsage(usageRows(records, { scope: 'branch', dayOf: dayIn('UTC') }));
    expect(report.projects.map((g) => [g.key, g.sessions])).toEqual([[original.cwd, 3]]);
  });

  test('a variant whose original is not stored, or a loop, keeps its own cwd', () => {
    const loopA = { id: 'a', cwd: '/a', variantOf: 'b' };
    const loopB = { id: 'b', cwd: '/b', variantOf: 'a' };
    expect(Object.fromEntries(projectsOf([copy, loopA, loopB]))).toEqual({ 'orig~2': copy.cwd, a: '/a', b: '/b' });
  });
});

describe('figures', () => {
  test('cache-hit rate, error rate, and cost recorded or not', () => {
    const s = { turns: 4, input: 10, output: 0, cacheRead: 30, cacheWrite: 0, tokens: 40, cost: 0, costedTurns: 0, toolCalls: 8, toolErrors: 2 };
    expect(cacheHitRate(s)).toBe(0.75);
    expect(toolErrorRate(s)).toBe(0.25);
    expect(costRecorded(s)).toBe('none');
    expect(costRecorded({ ...s, cost: 1, costedTurns: 2 })).toBe('some');
    expect(costRecorded({ ...s, cost: 1, costedTurns: 4 })).toBe('all');
    // Every turn "priced" at exactly 0 beside 40 tokens: pi had no price for the model.
    expect(costRecorded({ ...s, costedTurns: 4 })).toBe('none');
    // Nothing spent and nothing used: a recorded $0.
    expect(costRecorded({ ...s, input: 0, cacheRead: 0, tokens: 0, costedTurns: 4 })).toBe('all');
    expect(cacheHitRate({ ...s, input: 0, cacheRead: 0 })).toBeNull();
    expect(toolErrorRate({ ...s, toolCalls: 0 })).toBeNull();
  });

  test('a cost of 0 beside tokens is no price recorded (pi without a price, or a conversion); a stored price is recorded', () => {
    const turn = (id: string, total: number, tokens = 1) =>
      ({
        type: 'message',
        id,
        parentId: null,
        timestamp: '2026-01-01T10:00:00.000Z',
        message: { role: 'assistant', model: 'm', content: [], usage: { input: tokens, output: tokens, cost: { total } } },
      }) as never;
    for (const zeroCostUnrecorded of [false, true]) {
      const c = createUsageCollector({ zeroCostUnrecorded });
      for (const [i, e] of [turn('a', 0), turn('b', 0), turn('c', 0.2)].entries()) c.add(e, i);
      const report = summarizeUsage(usageRows([{ id: 's', title: null, cwd: '/', usage: c.finish(() => true, 'codex') }], { scope: 'all', dayOf: () => 'd' }));
      expect([report.total.turns, report.total.costedTurns, report.total.cost]).toEqual([3, 1, 0.2]);
      expect(costRecorded(report.total)).toBe('some');
    }
    // pi's zeros on every turn (an aborted turn without tokens among them): no price recorded at all.
    const c = createUsageCollector();
    for (const [i, e] of [turn('a', 0), turn('b', 0, 0), turn('c', 0)].entries()) c.add(e, i);
    const report = summarizeUsage(usageRows([{ id: 's', title: null, cwd: '/', usage: c.finish(() => true, 'pi') }], { scope: 'all', dayOf: () => 'd' }));
    expect(costRecorded(report.total)).toBe('none');
  });
});

describe('CSV', () => {
  test('one line per day × session × model; an unrecorded cost is empty; hostile titles are quoted and defused', () => {
    const hostile: UsageRecord = {
      id: 'h',
      title: '=HYPERLINK("http://evil"),"<script>alert(1)</script>"\nnext',
      cwd: '/p,q',
      usage: {
        agent: 'pi',
        models: ['m/1', 'm/2'],
        start: sliceOf('2026-03-05T10:00:00Z'),
        branch: [bucket(0, 0, { input: 3 }), bucket(1, 1, { input: 4, cost: 0.1, costed: 1 })],
        other: [],
      },
    };
    const rows = usageRows([hostile, nearMidnight], { scope: 'all', dayOf: dayIn('UTC') });
    const csv = usageCsv(rows, [hostile, nearMidnight], 'all');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'day,scope,session_id,session_title,project,agent,model,source_session_id,turns,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens,total_tokens,cost_usd,cost_recorded_turns,tool_calls,tool_errors',
    );
    expect(lines[1]).toBe('2026-03-01,all branches,m,midnight,/p,pi,a/x,m,1,100,0,0,0,100,1,1,0,0');
    expect(lines[2]).toBe('2026-03-02,all branches,m,midnight,/p,pi,a/x,m,1,10,0,0,0,10,0.5,1,0,0');
    const title = `"'=HYPERLINK(""http://evil""),""<script>alert(1)</script>""\nnext"`;
    // The day's two models, costliest first; the unrecorded cost is an empty cell, not 0.
    expect(csv).toContain(`2026-03-05,all branches,h,${title},"/p,q",pi,m/2,h,1,4,0,0,0,4,0.1,1,0,0\r\n`);
    expect(csv).toContain(`2026-03-05,all branches,h,${title},"/p,q",pi,m/1,h,1,3,0,0,0,3,,0,0,0\r\n`);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csvField('-1+2')).toBe("'-1+2");
    expect(csvField(-1)).toBe('-1');
  });
});
