// Subagent transcripts in folder imports and bundles: the real pi pair (frinfo702 dotfiles, in
// `<session>/<runId>/run-0/session.jsonl`) and omp's `<session>/<AgentId>.jsonl` beside its parent.
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { findSubagentStart, parse, subagentPlace } from '../../../src/core/index.ts';
import { createApi } from '../../../src/worker/api.ts';
import { memoryStore } from '../../storage/helpers.ts';

const real = (name: string) => readFileSync(new URL(`../../../fixtures/real/${name}`, import.meta.url));
const PARENT_ID = '019e62c3-5249-7057-9390-c72853be72e9';
const CHILD_ID = '019e62c3-714a-75a0-a981-c1a6aeef0f10';
const DIR = 'sessions/--Users-ken702-ghq-github.com-frinfo702-dotfiles--';
const STEM = `${DIR}/2026-05-26T05-30-28-297Z_${PARENT_ID}`;

function setup() {
  const { store, disk } = memoryStore({ now: () => 1_700_000_000_000 });
  const api = createApi({ store, now: () => new Date('2026-06-01T00:00:00.000Z'), randomId: () => 'abcdef01' });
  return { api, store, disk };
}

const realPair = () => [
  { path: `${STEM}.jsonl`, file: new File([real('frinfo702-dotfiles-subagent-parent.jsonl')], 'p.jsonl') },
  { path: `${STEM}/f0e4b9e7/run-0/session.jsonl`, file: new File([real('frinfo702-dotfiles-subagent-run0.jsonl')], 'session.jsonl') },
];

// An omp parent whose `task` tool call started agent `0-Explore`, and that agent's transcript.
function ompPair() {
  const t = (s: number) => `2026-07-01T10:00:0${s}.000Z`;
  const usage = (cost: number) => ({
    input: 100,
    output: 50,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 150,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
  });
  const parent = [
    { type: 'session', version: 3, id: 'omp-parent', timestamp: t(0), cwd: '/w' },
    { type: 'message', id: 'u1', parentId: null, timestamp: t(1), message: { role: 'user', content: 'explore', timestamp: 1 } },
    {
      type: 'message',
      id: 'a1',
      parentId: 'u1',
      timestamp: t(2),
      message: {
        role: 'assistant',
        content: [{ type: 'toolCall', id: 'call_task', name: 'task', arguments: { agent: 'explore' } }],
        api: 'x',
        provider: 'p',
        model: 'm',
        usage: usage(0.5),
        stopReason: 'toolUse',
        timestamp: 2,
      },
    },
    {
      type: 'message',
      id: 'r1',
      parentId: 'a1',
      timestamp: t(5),
      message: {
        role: 'toolResult',
        toolCallId: 'call_task',
        toolName: 'task',
        content: [{ type: 'text', text: 'done' }],
        details: { results: [{ id: '0-Explore', agent: 'explore' }] },
        isError: false,
        timestamp: 5,
      },
    },
  ];
  const child = [
    { type: 'session', version: 3, id: 'omp-child', timestamp: t(3), cwd: '/w' },
    { type: 'message', id: 'c1', parentId: null, timestamp: t(3), message: { role: 'user', content: 'look around', timestamp: 3 } },
    {
      type: 'message',
      id: 'c2',
      parentId: 'c1',
      timestamp: t(4),
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'found it' }],
        api: 'x',
        provider: 'p',
        model: 'm',
        usage: usage(0.25),
        stopReason: 'stop',
        timestamp: 4,
      },
    },
  ];
  const lines = (xs: object[]) => xs.map((x) => JSON.stringify(x)).join('\n') + '\n';
  const stem = 'agent/sessions/--w--/2026-07-01T10-00-00-000Z_omp-parent';
  return [
    { path: `${stem}.jsonl`, file: new File([lines(parent)], 'p.jsonl') },
    { path: `${stem}/0-Explore.jsonl`, file: new File([lines(child)], '0-Explore.jsonl') },
  ];
}

describe('subagent layouts', () => {
  test('paths: pi runs and omp agents beside a session file; a project folder is not a parent', () => {
    const siblings = new Set(['a/s.jsonl']);
    expect(subagentPlace('a/s/abc/run-2/session.jsonl', siblings)).toEqual({ layout: 'pi-run', parentStem: 'a/s', name: 'abc', run: 2 });
    expect(subagentPlace('a/s/0-Explore.jsonl', siblings)).toEqual({ layout: 'omp', parentStem: 'a/s', name: '0-Explore' });
    expect(subagentPlace(`x/2026-01-01T00-00-00-000Z_id1/Agent.jsonl`, new Set())).toMatchObject({ layout: 'omp', name: 'Agent' });
    expect(subagentPlace('sessions/--home-u-proj--/2026-01-01T00-00-00-000Z_id1.jsonl', new Set())).toBeNull();
    expect(subagentPlace('top.jsonl', siblings)).toBeNull();
  });

  test('the real pair: the child starts after the first "Running subagent..." custom message, which starts it', () => {
    const parent = parse(real('frinfo702-dotfiles-subagent-parent.jsonl')).entries;
    const child = parse(real('frinfo702-dotfiles-subagent-run0.jsonl'));
    expect(findSubagentStart(parent, { name: 'f0e4b9e7', started: child.header?.timestamp })).toEqual({ entryId: '316b04ee' });
    // A run the parent names (runId d67d9e3c in a result's details) links to the first message of its request.
    expect(findSubagentStart(parent, { name: 'd67d9e3c' })).toEqual({ entryId: 'c7e42e79' });
  });
});

describe('subagents in imports', () => {
  test('a folder import stores the real pi run as a child of its parent, linked to the custom message that started it', async () => {
    const { api } = setup();
    const report = await api.importFiles({ files: realPair() });
    expect(report.items.map((i) => [i.outcome, i.id, i.parentOf])).toEqual([
      ['added', PARENT_ID, undefined],
      ['added', CHILD_ID, PARENT_ID],
    ]);
    const child = await api.getSession({ id: CHILD_ID });
    expect(child.parentOf).toBe(PARENT_ID);
    expect(child.subagent).toEqual({ layout: 'pi-run', name: 'f0e4b9e7', run: 0, entryId: '316b04ee' });
    const family = await api.sessionFamily({ id: PARENT_ID });
    expect(family.children.map((c) => c.id)).toEqual([CHILD_ID]);
    expect(family.withSubagents.tokens).toBe(family.own.tokens + child.totals.tokens);
    expect(child.totals.tokens).toBeGreaterThan(0);
    expect((await api.sessionFamily({ id: CHILD_ID })).parent?.id).toBe(PARENT_ID);
  });

  test('omp: <session>/<AgentId>.jsonl links to the task tool call; totals with and without the subagent', async () => {
    const { api } = setup();
    const report = await api.importFiles({ files: ompPair() });
    expect(report.items[1]).toMatchObject({ outcome: 'added', id: 'omp-child', parentOf: 'omp-parent' });
    expect((await api.getSession({ id: 'omp-child' })).subagent).toEqual({ layout: 'omp', name: '0-Explore', entryId: 'a1', toolCallId: 'call_task' });
    const family = await api.sessionFamily({ id: 'omp-parent' });
    expect(family.own.cost).toBeCloseTo(0.5);
    expect(family.withSubagents.cost).toBeCloseTo(0.75);
    expect(family.descendants).toBe(1);
  });

  test('a child imported after its parent (alone) finds it by the folder name; the link survives an index rebuild', async () => {
    const { api, store } = setup();
    await api.importFiles({ files: [realPair()[0]] });
    const report = await api.importFiles({ files: [realPair()[1]] });
    expect(report.items[0]).toMatchObject({ id: CHILD_ID, parentOf: PARENT_ID });
    await store.rebuild();
    expect((await api.getSession({ id: CHILD_ID })).parentOf).toBe(PARENT_ID);
  });

  test('bundles carry them: exporting the parent brings its child in its layout, and a re-import keeps the link', async () => {
    const a = setup();
    await a.api.importFiles({ files: [...realPair(), ...ompPair()] });
    const bundle = await a.api.exportBundle({ ids: [PARENT_ID, 'omp-parent'] });
    const names = Object.keys(unzipSync(new Uint8Array(await bundle.blob.arrayBuffer()))).sort();
    expect(names).toEqual([
      'sessions/--Users-ken702-ghq-github.com-frinfo702-dotfiles--/2026-05-26T05-30-28-297Z_019e62c3-5249-7057-9390-c72853be72e9.jsonl',
      'sessions/--Users-ken702-ghq-github.com-frinfo702-dotfiles--/2026-05-26T05-30-28-297Z_019e62c3-5249-7057-9390-c72853be72e9/f0e4b9e7/run-0/session.jsonl',
      'sessions/--w--/2026-07-01T10-00-00-000Z_omp-parent.jsonl',
      'sessions/--w--/2026-07-01T10-00-00-000Z_omp-parent/0-Explore.jsonl',
    ]);
    const b = setup();
    await b.api.importFiles({ files: [new File([bundle.blob], bundle.name)] });
    expect((await b.api.getSession({ id: CHILD_ID })).subagent).toEqual({ layout: 'pi-run', name: 'f0e4b9e7', run: 0, entryId: '316b04ee' });
    expect((await b.api.getSession({ id: 'omp-child' })).subagent).toMatchObject({ layout: 'omp', toolCallId: 'call_task' });
  });
});

describe('forks', () => {
  const FORK = 'frinfo702-dotfiles-fork-child.jsonl';
  const forkHeader = () => JSON.parse(real(FORK).toString('utf8').split('\n')[0]);

  test("a pi fork names the session it came from (its header's parentSession, a file path); the reader's family holds that session", async () => {
    // pi writes the parent's path: `…/<timestamp>_<id>.jsonl`.
    const named = (forkHeader().parentSession as string).match(/_([0-9a-f-]+)\.jsonl$/)?.[1];
    expect(named).toBe(PARENT_ID);
    const { api, store } = setup();
    const report = await api.importFiles({ files: [new File([real(FORK)], FORK), realPair()[0]] });
    const [fork, parent] = report.items;
    expect([fork.outcome, parent.outcome]).toEqual(['added', 'added']);
    expect((await api.getSession({ id: fork.id as string })).forkOf).toBe(named);
    expect((await api.getSession({ id: PARENT_ID })).forkOf).toBeUndefined();
    expect((await api.sessionFamily({ id: fork.id as string })).forkOf?.id).toBe(PARENT_ID);
    expect((await api.sessionFamily({ id: PARENT_ID })).forkOf).toBeNull();
    await store.rebuild();
    expect((await api.getSession({ id: fork.id as string })).forkOf).toBe(PARENT_ID);
  });

  test("omp names the parent by its id; a Claude Code subagent's parentSession is its spawner (a subagent, no fork)", async () => {
    const { api } = setup();
    const omp = [
      { type: 'session', version: 3, id: 'omp-fork', timestamp: '2026-07-01T10:00:00.000Z', cwd: '/w', parentSession: 'omp-parent' },
      { type: 'message', id: 'u1', parentId: null, timestamp: '2026-07-01T10:00:01.000Z', message: { role: 'user', content: 'hey', timestamp: 1 } },
    ];
    const claudeChild = readFileSync(new URL('../../../fixtures/other-agents/claude/Xu-Wentao-dotfile-v2.1.78-worktree-subagent.jsonl', import.meta.url));
    const report = await api.importFiles({
      files: [new File([`${omp.map((l) => JSON.stringify(l)).join('\n')}\n`], 'omp-fork.jsonl'), new File([claudeChild], 'agent.jsonl')],
    });
    expect((await api.getSession({ id: 'omp-fork' })).forkOf).toBe('omp-parent');
    expect((await api.sessionFamily({ id: 'omp-fork' })).forkOf).toBeNull();
    const claude = await api.getSession({ id: report.items[1].id as string });
    expect(claude.agent).toBe('claude-code');
    expect(claude.forkOf).toBeUndefined();
  });
});
