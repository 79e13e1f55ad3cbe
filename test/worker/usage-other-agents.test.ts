// The Usage screen's figures for Claude Code and Codex sessions with their subagents, from the
// records the worker lists (what the page's library signal holds; no file read again): the real
// fixtures imported as a folder, each child linked to its parent; every turn counted, the cost
// "no price recorded" (neither agent stores a price), and a child's usage counted in its parent's
// session and project, so the totals equal the sum of every file's own.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { summarizeUsage, type UsageRecord, usageRows } from '../../src/core/index.ts';
import { costShort, costText } from '../../src/ui/usage/format.ts';
import { createApi } from '../../src/worker/api.ts';
import { memoryStore } from '../storage/helpers.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/other-agents/${name}`, import.meta.url)));
const firstId = (bytes: Uint8Array, pick: (r: Record<string, any>) => unknown) => {
  for (const line of new TextDecoder().decode(bytes).split('\n')) {
    if (!line.trim()) continue;
    const found = pick(JSON.parse(line));
    if (typeof found === 'string') return found;
  }
  throw new Error('no id');
};
const utcDay = (slice: number) => new Date(slice * 15 * 60_000).toISOString().slice(0, 10);

test('Claude Code and Codex with subagents: no price recorded, children counted in their parents', async () => {
  const claudeParent = fixture('claude/Xu-Wentao-dotfile-v2.1.78-worktree.jsonl');
  const claudeChild = fixture('claude/Xu-Wentao-dotfile-v2.1.78-worktree-subagent.jsonl');
  const sid = firstId(claudeParent, (r) => r.sessionId);
  const agentId = firstId(claudeChild, (r) => r.agentId);
  const dir = '.claude/projects/-Users-xuwentao-Projects';
  const { store } = memoryStore({ now: () => 1_700_000_000_000 });
  const api = createApi({ store, now: () => new Date('2026-06-01T00:00:00.000Z'), randomId: () => 'abcdef01' });
  const report = await api.importFiles({
    files: [
      { path: `${dir}/${sid}.jsonl`, file: new File([claudeParent], `${sid}.jsonl`) },
      { path: `${dir}/${sid}/subagents/agent-${agentId}.jsonl`, file: new File([claudeChild], `agent-${agentId}.jsonl`) },
      { path: 'sessions/2026/02/19/child.jsonl', file: new File([fixture('codex/h-morishita-esol-devenv-v0.104.0-spawn-child.jsonl')], 'child.jsonl') },
      { path: 'sessions/2026/02/19/parent.jsonl', file: new File([fixture('codex/h-morishita-esol-devenv-v0.104.0-spawn-parent.jsonl')], 'parent.jsonl') },
    ],
  });
  expect(report.items.map((i) => i.outcome)).toEqual(['added', 'added', 'added', 'added']);
  const records: UsageRecord[] = await api.listSessions({});
  const children = records.filter((r) => r.parentOf);
  const parents = records.filter((r) => !r.parentOf);
  expect(children).toHaveLength(2);
  expect(children.map((c) => parents.some((p) => p.id === c.parentOf))).toEqual([true, true]);

  for (const scope of ['all', 'branch'] as const) {
    const rows = usageRows(records, { scope, dayOf: utcDay });
    const r = summarizeUsage(rows);
    // Each file's own figures, summed alone (a record by itself has no parent to count in).
    const own = new Map(records.map((s) => [s.id, summarizeUsage(usageRows([{ ...s, parentOf: undefined }], { scope, dayOf: utcDay })).total]));
    for (const s of records) expect(own.get(s.id)!.turns, `${s.id} has turns`).toBeGreaterThan(0);
    expect(r.total.turns).toBe([...own.values()].reduce((n, t) => n + t.turns, 0));
    expect(r.total.tokens).toBe([...own.values()].reduce((n, t) => n + t.tokens, 0));
    // Neither agent stores a price: "no price recorded", never $0.
    expect(r.total.costedTurns).toBe(0);
    expect(costText(r.total)).toBe('no price recorded');
    expect(r.agents.map((g) => [g.key, costShort(g)]).sort()).toEqual([
      ['claude-code', 'no price recorded'],
      ['codex', 'no price recorded'],
    ]);
    // The children count in their parents: two sessions, each its own and its child's usage.
    expect(r.sessions).toBe(2);
    expect(r.bySession.map((g) => g.key).sort()).toEqual(parents.map((p) => p.id).sort());
    for (const p of parents) {
      const child = children.find((c) => c.parentOf === p.id)!;
      const g = r.bySession.find((x) => x.key === p.id)!;
      expect(g.tokens).toBe(own.get(p.id)!.tokens + own.get(child.id)!.tokens);
      expect(g.turns).toBe(own.get(p.id)!.turns + own.get(child.id)!.turns);
    }
    // …and in their parents' projects, whatever cwd the child's own records name.
    expect(r.projects.map((g) => g.key).sort()).toEqual([...new Set(parents.map((p) => p.cwd))].sort());
    for (const g of r.projects) {
      const ps = parents.filter((p) => p.cwd === g.key);
      const want = ps.reduce((n, p) => n + own.get(p.id)!.tokens + own.get(children.find((c) => c.parentOf === p.id)!.id)!.tokens, 0);
      expect(g.tokens).toBe(want);
    }
    // The CSV rows name the child as the source and the parent as the session.
    for (const c of children)
      expect(rows.filter((x) => x.source === c.id).every((x) => x.session === c.parentOf && x.project === parents.find((p) => p.id === c.parentOf)!.cwd)).toBe(
        true,
      );
  }
});
