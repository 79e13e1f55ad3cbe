// Claude Code and Codex store no prices: their sessions' cost is "no price recorded" on the Usage
// screen and in its totals, never $0; a library mixing them with priced pi sessions says for how
// many turns a cost was recorded. Real fixtures, stored through the store, aggregated from the index.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { costRecorded, summarizeUsage, usageRows } from '../../src/core/library-usage/index.ts';
import { once } from '../../src/storage/chunks.ts';
import { costShort, costText } from '../../src/ui/usage/format.ts';
import { memoryStore } from './helpers.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/other-agents/${name}`, import.meta.url)));
const CLAUDE = 'claude/LAF-US-IDAHO-VAULT-v2.1.101-compact6.jsonl';
const CODEX = 'codex/Fegor-Basic-Rootkit-v0.40.0.jsonl';
const day = () => '2026-01-01';

const PI = `${[
  { type: 'session', version: 3, id: 'pi-1', timestamp: '2026-01-01T10:00:00.000Z', cwd: '/home/u/app' },
  ...[0.5, 0.25].map((total, i) => ({
    type: 'message',
    id: `m${i}`,
    parentId: i ? 'm0' : null,
    timestamp: `2026-01-01T10:0${i}:00.000Z`,
    message: {
      role: 'assistant',
      provider: 'acme',
      model: 'm1',
      content: [{ type: 'text', text: 'hi' }],
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total } },
      stopReason: 'stop',
      timestamp: Date.parse('2026-01-01T10:00:00.000Z') + i,
    },
  })),
]
  .map((x) => JSON.stringify(x))
  .join('\n')}\n`;

describe('the cost of sessions from agents that store no prices', () => {
  test.each([
    ['claude-code', CLAUDE],
    ['codex', CODEX],
  ])('%s: every turn counted, no cost recorded ("no price recorded", never zero dollars)', async (agent, name) => {
    const { store } = memoryStore({ now: () => 1 });
    const s = await store.create('s', once(fixture(name)));
    expect(s.agent).toBe(agent);
    expect(s.usage.agent).toBe(agent);
    const report = summarizeUsage(usageRows([s], { scope: 'all', dayOf: day }));
    expect(report.total.turns).toBeGreaterThan(0);
    expect(report.total.tokens).toBeGreaterThan(0);
    expect(report.total.costedTurns).toBe(0);
    expect(costRecorded(report.total)).toBe('none');
    expect(costText(report.total)).toBe('no price recorded');
    expect(report.agents.map((g) => [g.key, costShort(g)])).toEqual([[agent, 'no price recorded']]);
    expect(report.bySession.map((g) => costShort(g))).toEqual(['no price recorded']);
  });

  test('mixed with a priced pi session: the totals say for how many turns a cost was recorded', async () => {
    const { store } = memoryStore({ now: () => 1 });
    const claude = await store.create('c', once(fixture(CLAUDE)));
    const codex = await store.create('x', once(fixture(CODEX)));
    const pi = await store.create('p', once(new TextEncoder().encode(PI)));
    const report = summarizeUsage(usageRows([claude, codex, pi], { scope: 'all', dayOf: day }));
    const foreignTurns = report.agents.filter((g) => g.key !== 'pi').reduce((n, g) => n + g.turns, 0);
    expect(report.total.costedTurns).toBe(2);
    expect(report.total.turns).toBe(foreignTurns + 2);
    expect(report.total.cost).toBeCloseTo(0.75);
    expect(costRecorded(report.total)).toBe('some');
    expect(costText(report.total)).toBe(`$0.75 (recorded for 2 of ${foreignTurns + 2} turns)`);
    const byAgent = new Map(report.agents.map((g) => [g.key, costShort(g)]));
    expect(byAgent).toEqual(
      new Map([
        ['pi', '$0.75'],
        ['claude-code', 'no price recorded'],
        ['codex', 'no price recorded'],
      ]),
    );
  });
});
