// Claude Code and Codex subagents linked to their parents, and an agent's folder linked: imported,
// followed as the agent appends, its files never written.
import { describe, expect, test } from 'vitest';
import { createMemoryFolder } from '../../src/storage/memory-folder.ts';
import { createApi } from '../../src/worker/api.ts';
import { memoryStore } from '../storage/helpers.ts';
import { fixture, records, setup, sourceFacts, sameBytes } from './other-agents-helpers.ts';

describe('subagents', () => {
  test("Claude Code: <session>/subagents/agent-<id>.jsonl is its parent's child", async () => {
    const parent = fixture('claude/Xu-Wentao-dotfile-v2.1.78-worktree.jsonl');
    const child = fixture('claude/Xu-Wentao-dotfile-v2.1.78-worktree-subagent.jsonl');
    const sid = sourceFacts('claude/x', parent).sessionId;
    const agentId = records(child).find((r) => r.agentId)?.agentId as string;
    const dir = '.claude/projects/-Users-xuwentao-Projects';
    const { api } = setup();
    const report = await api.importFiles({
      files: [
        { path: `${dir}/${sid}.jsonl`, file: new File([parent], `${sid}.jsonl`) },
        { path: `${dir}/${sid}/subagents/agent-${agentId}.jsonl`, file: new File([child], `agent-${agentId}.jsonl`) },
      ],
    });
    const [p, c] = report.items;
    expect(p.outcome).toBe('added');
    expect(c.parentOf).toBe(p.id);
    const s = await api.getSession({ id: c.id as string });
    expect(s).toMatchObject({ parentOf: p.id, agent: 'claude-code', subagent: { layout: 'claude', name: agentId } });
  });

  test('a child imported after its parent (another import) finds it by the session id its own records carry', async () => {
    const parent = fixture('claude/Xu-Wentao-dotfile-v2.1.78-worktree.jsonl');
    const child = fixture('claude/Xu-Wentao-dotfile-v2.1.78-worktree-subagent.jsonl');
    const sid = sourceFacts('claude/x', parent).sessionId;
    const { api } = setup();
    const p = (await api.importFiles({ files: [new File([parent], `${sid}.jsonl`)] })).items[0];
    const c = (await api.importFiles({ files: [{ path: `proj/${sid}/subagents/agent-a22b51e1072e9a44b.jsonl`, file: new File([child], 'agent.jsonl') }] }))
      .items[0];
    expect(c.parentOf).toBe(p.id);
    const codexParent = fixture('codex/h-morishita-esol-devenv-v0.104.0-spawn-parent.jsonl');
    const codexChild = fixture('codex/h-morishita-esol-devenv-v0.104.0-spawn-child.jsonl');
    const cp = (await api.importFiles({ files: [new File([codexParent], 'parent.jsonl')] })).items[0];
    const cc = (await api.importFiles({ files: [new File([codexChild], 'child.jsonl')] })).items[0];
    expect(cc.parentOf).toBe(cp.id);
  });

  test.each(['child first', 'parent first', 'side by side'])(
    "Claude Code: a loose agent-<id>.jsonl (%s) is its parent's child, found by the session id its sidechain records carry",
    async (order) => {
      const parent = fixture('claude/LAF-US-IDAHO-VAULT-v2.1.101-compact6.jsonl');
      const child = fixture('claude/LAF-US-IDAHO-VAULT-v2.1.101-compact6-subagent.jsonl');
      const sid = sourceFacts('claude/x', parent).sessionId;
      const childRecords = records(child);
      const agentId = childRecords[0].agentId as string;
      // The child's records are all sidechain records of the parent's session.
      expect(childRecords.every((r) => r.isSidechain === true && r.sessionId === sid)).toBe(true);
      const { api } = setup();
      const parentFile = { path: `${sid}.jsonl`, file: new File([parent], `${sid}.jsonl`) };
      const childFile = { path: `agent-${agentId}.jsonl`, file: new File([child], `agent-${agentId}.jsonl`) };
      const items =
        order === 'side by side'
          ? (await api.importFiles({ files: [parentFile, childFile] })).items
          : order === 'parent first'
            ? [...(await api.importFiles({ files: [parentFile] })).items, ...(await api.importFiles({ files: [childFile] })).items]
            : [...(await api.importFiles({ files: [childFile] })).items, ...(await api.importFiles({ files: [parentFile] })).items].reverse();
      const [p, c] = items;
      expect([p.outcome, c.outcome]).toEqual(['added', 'added']);
      expect(await api.getSession({ id: c.id as string })).toMatchObject({ parentOf: p.id, subagent: { layout: 'claude', name: agentId } });
      expect((await api.sessionFamily({ id: p.id as string })).children.map((s) => s.id)).toEqual([c.id]);
    },
  );

  test('Codex: a spawned child stored before its parent links when the parent arrives', async () => {
    const parent = fixture('codex/h-morishita-esol-devenv-v0.104.0-spawn-parent.jsonl');
    const child = fixture('codex/h-morishita-esol-devenv-v0.104.0-spawn-child.jsonl');
    const { api } = setup();
    const c = (await api.importFiles({ files: [new File([child], 'child.jsonl')] })).items[0];
    expect((await api.getSession({ id: c.id as string })).parentOf).toBeUndefined();
    const p = (await api.importFiles({ files: [new File([parent], 'parent.jsonl')] })).items[0];
    expect(await api.getSession({ id: c.id as string })).toMatchObject({ parentOf: p.id, subagent: { layout: 'codex' } });
  });

  test("Codex: a spawned child (its session_meta names the parent thread) is its parent's child", async () => {
    const parent = fixture('codex/h-morishita-esol-devenv-v0.104.0-spawn-parent.jsonl');
    const child = fixture('codex/h-morishita-esol-devenv-v0.104.0-spawn-child.jsonl');
    const { api } = setup();
    const report = await api.importFiles({
      files: [
        { path: 'sessions/2026/02/19/child.jsonl', file: new File([child], 'child.jsonl') },
        { path: 'sessions/2026/02/19/parent.jsonl', file: new File([parent], 'parent.jsonl') },
      ],
    });
    const [c, p] = report.items;
    expect(p.outcome).toBe('added');
    expect(c.parentOf).toBe(p.id);
    expect(await api.getSession({ id: c.id as string })).toMatchObject({ parentOf: p.id, agent: 'codex', subagent: { layout: 'codex' } });
  });
});

describe('a linked folder', () => {
  test("~/.claude/projects linked: imported, linked, followed as the agent appends; the folder's files are never written", async () => {
    const parent = fixture('claude/Xu-Wentao-dotfile-v2.1.78-worktree.jsonl');
    const child = fixture('claude/Xu-Wentao-dotfile-v2.1.78-worktree-subagent.jsonl');
    const sid = sourceFacts('claude/x', parent).sessionId;
    let clock = 1_000;
    const folder = createMemoryFolder('projects', () => ++clock);
    const { store } = memoryStore({ now: () => 1_700_000_000_000 });
    const api = createApi({ store, now: () => new Date('2026-06-01T00:00:00.000Z'), randomId: () => 'abcdef01', openFolder: () => folder });
    const sync = () => api.syncLinkedFolder({ key: 'k', handle: {} as FileSystemDirectoryHandle });
    const lines = new TextDecoder().decode(parent).split('\n');
    const cut = Math.floor(lines.length / 2);
    const early = new TextEncoder().encode(`${lines.slice(0, cut).join('\n')}\n`);
    const parentPath = `-Users-x-proj/${sid}.jsonl`;
    folder.files.set(parentPath, { bytes: early, modified: ++clock });
    folder.files.set(`-Users-x-proj/${sid}/subagents/agent-a22b51e1072e9a44b.jsonl`, { bytes: child, modified: ++clock });
    const first = await sync();
    const [p, c] = first.items;
    expect(p).toMatchObject({ outcome: 'added' });
    expect(c.parentOf).toBe(p.id);
    const before = await api.getSession({ id: p.id as string });
    // The agent writes on: the rest of the file.
    folder.files.set(parentPath, { bytes: parent, modified: ++clock });
    const second = await sync();
    expect(second.items).toEqual([expect.objectContaining({ outcome: 'updated', id: p.id })]);
    const after = await api.getSession({ id: p.id as string });
    expect(after.entryCount).toBeGreaterThan(before.entryCount);
    expect(after.size).toBe(parent.length);
    // Nothing to write back (the library never adds to another agent's file), and the folder holds the agent's bytes.
    expect((await api.planWriteBack({ key: 'k', handle: {} as FileSystemDirectoryHandle, id: p.id as string })).mode).toBe('nothing');
    expect(sameBytes(folder.files.get(parentPath)?.bytes as Uint8Array, parent)).toBe(true);
  });
});
