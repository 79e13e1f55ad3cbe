// Write back, judged by pi itself: a session imported from a linked folder grows in the library (as
// on the phone), is written back, and pi 0.73.1's SessionManager opens the folder's file and finds
// every entry written on the phone on its branch and in its context. The folder is the memory
// FolderDisk (the same interface the real linked folder has, tested in Chromium in test/e2e).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { describe, expect, test } from 'vitest';
import { assistant, user } from '../../../src/core/index.ts';
import { createMemoryFolder } from '../../../src/storage/memory-folder.ts';
import { createApi } from '../../../src/worker/api.ts';
import { bytes, memoryStore } from '../../storage/helpers.ts';

const PATH = '--Users-ken702-ghq-github.com-frinfo702-dotfiles--/2026-05-26T05-30-28-297Z_019e62c3-5249-7057-9390-c72853be72e9.jsonl';
const ID = '019e62c3-5249-7057-9390-c72853be72e9';
const original = readFileSync(new URL('../../../fixtures/real/frinfo702-dotfiles-subagent-parent.jsonl', import.meta.url));

async function setup() {
  let clock = 1_000;
  const folder = createMemoryFolder('sessions', () => ++clock);
  folder.files.set(PATH, { bytes: new Uint8Array(original), modified: ++clock });
  const { store } = memoryStore({ now: () => 1_700_000_000_000 });
  let n = 0;
  const api = createApi({
    store,
    now: () => new Date('2026-06-01T12:00:00.000Z'),
    randomId: () => (0xa0000000 + ++n).toString(16),
    openFolder: () => folder,
  });
  const handle = {} as FileSystemDirectoryHandle;
  await api.syncLinkedFolder({ key: 'k', handle });
  // On the phone: a question and an answer appended to the session.
  const grown = await api.appendEntries({
    id: ID,
    entries: [
      user('Written on the phone: summarise the review'),
      assistant({ text: 'The phone answer.', stopReason: 'stop', api: 'x', provider: 'p', model: 'm' } as never),
    ],
  });
  return { api, folder, handle, grown };
}

/** pi's view of a file: the ids on the branch to its leaf and the texts of its context. */
function piReads(text: Uint8Array) {
  const dir = mkdtempSync(join(tmpdir(), 'rho-writeback-'));
  const file = join(dir, 'session.jsonl');
  writeFileSync(file, text);
  const sm = SessionManager.open(file, dir);
  const branch = sm.getBranch().map((e) => e.id);
  const context = JSON.stringify(sm.buildSessionContext().messages);
  return { branch, context };
}

describe('write back to a linked folder', () => {
  test('the folder file is a prefix of ours: the plan lists the phone entries, the append keeps every agent byte, pi reads them all', async () => {
    const { api, folder, handle, grown } = await setup();
    const plan = await api.planWriteBack({ key: 'k', handle, id: ID });
    expect(plan.mode).toBe('append');
    expect(plan.target).toBe(PATH);
    expect(plan.bytes).toBe(grown.size - original.length);
    expect(plan.entries.map((e) => e.preview)).toEqual(['user: Written on the phone: summarise the review', 'assistant: The phone answer.']);
    await api.writeBack({ key: 'k', handle, plan });
    const after = folder.files.get(PATH)!.bytes;
    expect(Buffer.from(after.subarray(0, original.length)).equals(original)).toBe(true);
    expect(after.length).toBe(grown.size);
    const pi = piReads(after);
    for (const e of plan.entries) expect(pi.branch).toContain(e.id);
    expect(pi.context).toContain('Written on the phone: summarise the review');
    expect(pi.context).toContain('The phone answer.');
    // The next sync finds the folder as the library holds it.
    expect((await api.syncLinkedFolder({ key: 'k', handle })).items.every((i) => i.outcome === 'unchanged')).toBe(true);
    expect((await api.planWriteBack({ key: 'k', handle, id: ID })).mode).toBe('nothing');
  });

  test('the agent wrote on after the plan: the append is refused and its file is left as it wrote it', async () => {
    const { api, folder, handle } = await setup();
    const plan = await api.planWriteBack({ key: 'k', handle, id: ID });
    const agentLine = bytes(
      `${JSON.stringify({ type: 'label', id: 'agent001', parentId: '21414bfb', timestamp: '2026-06-01T12:00:01.000Z', targetId: '21414bfb', label: 'x' })}\n`,
    );
    const theirs = new Uint8Array([...original, ...agentLine]);
    folder.files.set(PATH, { bytes: theirs, modified: 99_999 });
    await expect(api.writeBack({ key: 'k', handle, plan })).rejects.toMatchObject({ code: 'conflict' });
    expect(Buffer.from(folder.files.get(PATH)!.bytes).equals(Buffer.from(theirs))).toBe(true);
  });

  test('the folder file diverged: ours is written as a new file beside it, named as pi names files; pi reads the phone entries there', async () => {
    const { api, folder, handle } = await setup();
    const agentLine = bytes(
      `${JSON.stringify({ type: 'label', id: 'agent001', parentId: '21414bfb', timestamp: '2026-06-01T12:00:01.000Z', targetId: '21414bfb', label: 'x' })}\n`,
    );
    const theirs = new Uint8Array([...original, ...agentLine]);
    folder.files.set(PATH, { bytes: theirs, modified: 99_999 });
    const plan = await api.planWriteBack({ key: 'k', handle, id: ID });
    expect(plan.mode).toBe('new-file');
    expect(plan.target).toBe(`--Users-ken702-ghq-github.com-frinfo702-dotfiles--/2026-06-01T12-00-00-000Z_${ID}.jsonl`);
    expect(plan.entries.map((e) => e.preview)).toEqual(['user: Written on the phone: summarise the review', 'assistant: The phone answer.']);
    await api.writeBack({ key: 'k', handle, plan });
    expect(Buffer.from(folder.files.get(PATH)!.bytes).equals(Buffer.from(theirs))).toBe(true);
    const pi = piReads(folder.files.get(plan.target)!.bytes);
    for (const e of plan.entries) expect(pi.branch).toContain(e.id);
    expect(pi.context).toContain('The phone answer.');
  });

  test('the folder disk offers no way to cut, replace or delete a file', () => {
    const folder = createMemoryFolder();
    for (const name of ['truncate', 'remove', 'move', 'writeNew', 'replace']) expect(name in folder).toBe(false);
  });
});

describe('write back after the agent diverged and the sync kept its file as a variant', () => {
  test('the library copy that grew on the phone is still offered, goes beside the agent file, and is not offered again', async () => {
    const { api, folder, handle } = await setup();
    const agentLine = bytes(
      `${JSON.stringify({ type: 'label', id: 'agent001', parentId: '21414bfb', timestamp: '2026-06-01T12:00:01.000Z', targetId: '21414bfb', label: 'x' })}\n`,
    );
    folder.files.set(PATH, { bytes: new Uint8Array([...original, ...agentLine]), modified: 99_999 });
    const report = await api.syncLinkedFolder({ key: 'k', handle });
    expect(report.items.map((i) => [i.outcome, i.id])).toEqual([['variant', `${ID}~2`]]);
    expect((await api.linkedSessions({ key: 'k' })).map((s) => s.id)).toContain(ID);
    const plan = await api.planWriteBack({ key: 'k', handle, id: ID });
    expect(plan.mode).toBe('new-file');
    await api.writeBack({ key: 'k', handle, plan });
    const pi = piReads(folder.files.get(plan.target)!.bytes);
    for (const e of plan.entries) expect(pi.branch).toContain(e.id);
    const offered = (await api.linkedSessions({ key: 'k' })).filter((s) => s.librarySize > s.folderSize).map((s) => s.id);
    expect(offered).not.toContain(ID);
  });
});
