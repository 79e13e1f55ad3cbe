// Every real session file of fixtures/real/ through the worker API on the memory store, as the app
// uses it: import → list (index record) → open → windows of items → context → stats. None of the
// 16 deserves a problem (see test/core/real-files.test.ts), so none may be reported on any screen.
import { readdirSync, readFileSync } from 'node:fs';
import { zipSync } from 'fflate';
import { beforeAll, describe, expect, test } from 'vitest';
import { leaves, parse, totals, branch } from '../../src/core/index.ts';
import { createApi } from '../../src/worker/api.ts';
import type { SessionSummary } from '../../src/storage/types.ts';
import { memoryStore } from '../storage/helpers.ts';

const dir = new URL('../../fixtures/real/', import.meta.url);
const names = readdirSync(dir)
  .filter((n) => n.endsWith('.jsonl'))
  .sort();
const bytesOf = (name: string) => new Uint8Array(readFileSync(new URL(name, dir)));
const leafIds = (s: ReturnType<typeof parse>) => leaves(s).map((e) => e.id as string);

const { store } = memoryStore({ now: () => 1_700_000_000_000 });
const api = createApi({ store, now: () => new Date(0), randomId: () => '00000000' });
const byName = new Map<string, SessionSummary>();

beforeAll(async () => {
  const report = await api.importFiles({ files: names.map((n) => new File([bytesOf(n)], n)) });
  expect(report.items.map((i) => [i.name, i.outcome, i.problems ?? 0])).toEqual(names.map((n) => [n, 'added', 0]));
  const list = await api.listSessions();
  expect(list).toHaveLength(names.length);
  for (const item of report.items) byName.set(item.name, list.find((s) => s.id === item.id)!);
});

describe.each(names)('real file %s through the worker API', (name) => {
  test('its index record has no problem and the core totals of its branch', () => {
    const s = byName.get(name)!;
    const parsed = parse(bytesOf(name));
    expect(s.problems).toBe(0);
    expect(s.entryCount).toBe(parsed.entries.length);
    expect(s.branchCount).toBe(leaves(parsed).length);
    expect(s.totals.tokens).toBe(totals(branch(parsed)).tokens);
  });

  test('opens every branch with no problem, reads every item in windows, its context and its stats', async () => {
    const { id } = byName.get(name)!;
    const first = await api.openSession({ id });
    expect(first.problems).toEqual([]);
    const parsed = parse(bytesOf(name));
    for (const leafId of leafIds(parsed)) {
      const view = await api.openSession({ id, leafId });
      expect(view.leafId).toBe(leafId);
      expect(view.problems).toEqual([]);
      const seen: number[] = [];
      for (let start = 0; start < view.count; start += 100) {
        const items = await api.readItems({ id, leafId, start, end: start + 100 });
        seen.push(...items.map((i) => i.index));
        expect(items.filter((i) => i.kind === 'unknown')).toEqual([]);
      }
      expect(seen).toEqual([...Array(view.count).keys()]);
      const ctx = await api.sessionContext({ id, leafId });
      expect(ctx.leafId).toBe(leafId);
      const stats = await api.sessionStats({ id, leafId });
      expect(stats.branch.tokens).toBe(totals(branch(parsed, leafId)).tokens);
    }
  });
});

test("a zip's import report names each session by its title, not only by its long path", async () => {
  const picked = ['frinfo702-dotfiles-branch-summary.jsonl', 'xiayongchao-pi-demo-branch.jsonl', 'castai-kimchi-dev-session.jsonl'];
  const zip = zipSync(Object.fromEntries(picked.map((n) => [`backup/.pi/agent/sessions/--home-u-proj--/${n}`, bytesOf(n)])));
  const fresh = memoryStore({ now: () => 1 }).store;
  const api2 = createApi({ store: fresh, now: () => new Date(0), randomId: () => '00000000' });
  const report = await api2.importFiles({ files: [new File([zip], 'backup.zip')] });
  const list = await api2.listSessions();
  expect(report.items).toHaveLength(3);
  for (const item of report.items) {
    const s = list.find((x) => x.id === item.id)!;
    expect(item.name).toMatch(/^backup\.zip\/backup\/\.pi\/agent\/sessions\//);
    expect(item.title).toBeTruthy();
    const full = (s.title ?? s.firstMessage ?? '').replace(/\s+/g, ' ').trim();
    expect(item.title).toBe(full.length > 100 ? `${full.slice(0, 99)}…` : full);
  }
});
