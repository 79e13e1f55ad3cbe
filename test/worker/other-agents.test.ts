// Claude Code and Codex files in the library: imported by their content, stored as
// their own bytes (exported unchanged), read everywhere as their pi conversion (the reader,
// search, usage), exported as a pi session that our core and pi's SessionManager read, never
// written to (rename and labels refused), grown by re-import; bad lines reported.
// Expectations come from the source files themselves (their ids, prompts, tool names, usage).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from '../../src/core/index.ts';
import { fixture, setup, sourceFacts, sameBytes, original, start, fold, FILES } from './other-agents-helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'rho-agents-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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
