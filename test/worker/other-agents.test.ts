// Claude Code and Codex files in the library: imported by their content, stored as
// their own bytes (exported unchanged), read everywhere as their pi conversion (the reader,
// search, usage), exported as a pi session that our core and pi's SessionManager read, never
// written to (rename and labels refused), grown by re-import, subagents linked to their parents.
// Expectations come from the source files themselves (their ids, prompts, tool names, usage).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from '../../src/core/index.ts';
import { createMemoryFolder } from '../../src/storage/memory-folder.ts';
import { createApi } from '../../src/worker/api.ts';
import { memoryStore } from '../storage/helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'rho-agents-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/other-agents/${name}`, import.meta.url)));
const records = (bytes: Uint8Array) =>
  new TextDecoder()
    .decode(bytes)
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, any>);

function setup() {
  const { store, disk } = memoryStore({ now: () => 1_700_000_000_000 });
  const api = createApi({ store, now: () => new Date('2026-06-01T00:00:00.000Z'), randomId: () => 'abcdef01' });
  return { api, store, disk };
}

/** What the source says about itself: its session id, its first typed prompt, its tool names, whether it has token usage. */
function sourceFacts(name: string, bytes: Uint8Array) {
  const rs = records(bytes);
  if (name.startsWith('claude/')) {
    const prompt = rs.find((r) => r.type === 'user' && !r.isMeta && typeof r.message?.content === 'string' && !r.message.content.startsWith('<'));
    const tools = new Set(
      rs
        .flatMap((r) => (r.type === 'assistant' && Array.isArray(r.message?.content) ? r.message.content : []))
        .filter((p: any) => p.type === 'tool_use')
        .map((p: any) => p.name as string),
    );
    return {
      agent: 'claude-code' as const,
      sessionId: rs.find((r) => typeof r.sessionId === 'string')?.sessionId as string,
      prompt: prompt?.message.content as string | undefined,
      tools,
      usage: rs.some((r) => r.type === 'assistant' && (r.message?.usage?.output_tokens ?? 0) > 0),
    };
  }
  const prompt = rs.find(
    (r) => r.type === 'event_msg' && r.payload?.type === 'user_message' && typeof r.payload.message === 'string' && r.payload.message.trim(),
  );
  const tools = new Set(
    rs
      .filter((r) => r.type === 'response_item' && (r.payload?.type === 'function_call' || r.payload?.type === 'custom_tool_call'))
      .map((r) => r.payload.name as string),
  );
  return {
    agent: 'codex' as const,
    sessionId: rs.find((r) => r.type === 'session_meta')?.payload.id as string,
    prompt: prompt?.payload.message as string | undefined,
    tools,
    usage: rs.some((r) => r.type === 'event_msg' && r.payload?.type === 'token_count' && (r.payload.info?.total_token_usage?.output_tokens ?? 0) > 0),
  };
}

/** Whether two byte arrays are the same bytes (expect's deep equality walks 2 MB element by element). */
const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
const original = async (api: ReturnType<typeof setup>['api'], id: string) => new Uint8Array(await (await api.exportSession({ id })).blob.arrayBuffer());

/** A prompt's first words, as the reader shows them (whitespace folded). */
const start = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 30);
const fold = (s: string) => s.replace(/\s+/g, ' ');

const FILES = [
  'claude/Xu-Wentao-dotfile-v2.1.78-worktree.jsonl',
  'claude/SWORDIntel-claude-backups-v1.0.89-sidechain-thinking.jsonl',
  'codex/Fegor-Basic-Rootkit-v0.40.0.jsonl',
  'codex/ADIOCLASSMATE-dotfile-v0.142.5-desktop.jsonl',
];

describe.each(FILES)('%s', (name) => {
  const bytes = fixture(name);
  const facts = sourceFacts(name, bytes);

  test('imports by content, reads as pi everywhere, exports the original unchanged and a pi session pi opens', async () => {
    const { api } = setup();
    const report = await api.importFiles({ files: [{ path: name.split('/')[1], file: new File([bytes], 'x') }] });
    const item = report.items[0];
    expect(item.outcome).toBe('added');
    const id = item.id as string;
    const s = await api.getSession({ id });
    expect(s.agent).toBe(facts.agent);
    expect(s.size).toBe(bytes.length);
    expect(s.entryCount).toBeGreaterThan(0);
    expect(s.title ?? s.firstMessage).toBeTruthy();
    if (facts.usage) expect(s.totals.tokens).toBeGreaterThan(0);
    expect(s.usage.agent).toBe(facts.agent);

    // The original, byte for byte.
    expect(sameBytes(await original(api, id), bytes)).toBe(true);

    // The pi session: named as pi names its files, the same entries our index counted, the source's tool names.
    const out = await api.exportPiSession({ id });
    const text = await out.blob.text();
    const ours = parse(text);
    expect(ours.header?.id).toBe(id.replace(/~\d+$/, ''));
    expect(out.name).toBe(`${String(ours.header?.timestamp).replace(/[:.]/g, '-')}_${ours.header?.id}.jsonl`);
    expect(ours.entries.length).toBe(s.entryCount);
    expect(ours.problems.filter((p) => p.severity === 'error')).toEqual([]);
    const called = new Set(
      ours.entries
        .flatMap((e) => ((e.message as any)?.role === 'assistant' ? (e.message as any).content : []))
        .filter((p: any) => p?.type === 'toolCall')
        .map((p: any) => p.name),
    );
    for (const t of facts.tools) expect(called).toContain(t);
    const path = join(tmp, out.name);
    writeFileSync(path, text);
    const sm = SessionManager.open(path, tmp);
    expect(sm.getHeader()?.id).toBe(ours.header?.id);
    expect(sm.getEntries().length).toBe(s.entryCount);

    // The reader opens the conversion: the first prompt is there.
    const view = await api.openSession({ id });
    const items = await api.readItems({ id, start: 0, end: Math.min(view.count, 500) });
    if (facts.prompt) expect(items.some((i) => i.kind === 'user' && fold(i.text).includes(start(facts.prompt as string)))).toBe(true);

    // A shared Markdown copy and the stats are made from the conversion as well.
    const md = await (await api.exportShared({ id, format: 'markdown', scope: 'session' })).blob.text();
    if (facts.prompt) expect(fold(md)).toContain(start(facts.prompt));
    const stats = await api.sessionStats({ id });
    expect(stats.perModel.length).toBeGreaterThan(0);

    // Search reads the conversion too: a word of the first prompt finds this session.
    const word = (facts.prompt ?? '').match(/[A-Za-z]{6,}/)?.[0];
    if (word) expect((await api.search({ query: word })).sessions.map((r) => r.id)).toContain(id);
  });
});

describe('never written to', () => {
  test('rename and labels are refused and the stored bytes stay the original', async () => {
    const name = 'claude/Xu-Wentao-dotfile-v2.1.78-worktree.jsonl';
    const bytes = fixture(name);
    const { api } = setup();
    const id = (await api.importFiles({ files: [new File([bytes], 'a.jsonl')] })).items[0].id as string;
    await expect(api.renameSession({ id, title: 'mine' })).rejects.toMatchObject({ code: 'unsupported' });
    const view = await api.openSession({ id });
    const first = (await api.readItems({ id, start: 0, end: 1 }))[0];
    await expect(api.labelEntry({ id, entryId: first.entryId as string, label: 'x' })).rejects.toMatchObject({ code: 'unsupported' });
    expect(view.count).toBeGreaterThan(0);
    expect(sameBytes(await original(api, id), bytes)).toBe(true);
    expect((await api.getSession({ id })).size).toBe(bytes.length);
  });
});

describe('grows like pi files do', () => {
  test.each(['claude/Xu-Wentao-dotfile-v2.1.78-worktree.jsonl', 'codex/Fegor-Basic-Rootkit-v0.40.0.jsonl'])(
    '%s: a longer copy appends, nothing lost',
    async (name) => {
      const bytes = fixture(name);
      // The file as it was at about two thirds of its lines: what the agent had written then.
      const lines = new TextDecoder().decode(bytes).split('\n');
      const early = new TextEncoder().encode(`${lines.slice(0, Math.floor(lines.length * 0.66)).join('\n')}\n`);
      const { api } = setup();
      const id = (await api.importFiles({ files: [new File([early], 'a.jsonl')] })).items[0].id as string;
      const before = await api.getSession({ id });
      const again = (await api.importFiles({ files: [new File([bytes], 'a.jsonl')] })).items[0];
      expect(again).toMatchObject({ outcome: 'updated', id });
      const after = await api.getSession({ id });
      expect(after.size).toBe(bytes.length);
      expect(after.entryCount).toBeGreaterThan(before.entryCount);
      // Same as importing the whole file at once.
      const { api: fresh } = setup();
      const whole = await fresh.getSession({ id: (await fresh.importFiles({ files: [new File([bytes], 'b.jsonl')] })).items[0].id as string });
      expect(after.entryCount).toBe(whole.entryCount);
      expect(await (await api.exportPiSession({ id })).blob.text()).toBe(await (await fresh.exportPiSession({ id: whole.id })).blob.text());
      expect(sameBytes(await original(api, id), bytes)).toBe(true);
      // The reader sees the grown conversion.
      const view = await api.openSession({ id });
      expect(view.count).toBeGreaterThan(0);
      expect(parse(await (await api.exportPiSession({ id })).blob.text()).entries.length).toBe(after.entryCount);
    },
  );
});

describe('bad lines', () => {
  test('a Claude Code file with a broken line is kept with its problem named by file and line; the stored one is unchanged', async () => {
    const name = 'claude/Xu-Wentao-dotfile-v2.1.78-worktree.jsonl';
    const bytes = fixture(name);
    const { api } = setup();
    const id = (await api.importFiles({ files: [new File([bytes], 'good.jsonl')] })).items[0].id as string;
    const lines = new TextDecoder().decode(bytes).split('\n');
    lines[40] = lines[40].slice(0, 50);
    const broken = new TextEncoder().encode(lines.join('\n'));
    const item = (await api.importFiles({ files: [new File([broken], 'broken.jsonl')] })).items[0];
    expect(item.name).toBe('broken.jsonl');
    expect(item.outcome).toBe('variant');
    expect(item.line).toBe(41);
    expect(item.reason).toBeTruthy();
    expect(sameBytes(await original(api, id), bytes)).toBe(true);
  });
});

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
