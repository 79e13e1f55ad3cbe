// Another agent's file in the store: the original bytes in sessions/, the pi conversion kept in
// derived/ under the original's key. A reopen reads the kept conversion (shown here by changing
// it behind the store's back: what comes back is the kept one, not a fresh conversion); the
// original grown, the conversion is made again; trashed, the conversion goes with it.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { toPiSession } from '../../src/core/formats/index.ts';
import { once } from '../../src/storage/chunks.ts';
import { derivedPath } from '../../src/storage/derived.ts';
import { piView } from '../../src/storage/pi-view.ts';
import { memoryStore } from './helpers.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/other-agents/${name}`, import.meta.url)));
const NAME = 'codex/Fegor-Basic-Rootkit-v0.40.0.jsonl';

describe('the pi conversion of a stored Codex file', () => {
  test('kept, reused, made again when the original grows, dropped with it', async () => {
    const whole = fixture(NAME);
    const lines = new TextDecoder().decode(whole).split('\n');
    const early = new TextEncoder().encode(`${lines.slice(0, 150).join('\n')}\n`);
    const { store, disk } = memoryStore({ now: () => 1 });
    const s = await store.create('s', once(early));
    expect(s).toMatchObject({ agent: 'codex', size: early.length, piSize: new TextEncoder().encode(toPiSession(early)?.text).length });
    const kept = disk.files.get(derivedPath('s'));
    expect(new TextDecoder().decode(kept?.bytes)).toBe(toPiSession(early)?.text);

    // Changed behind the store's back (same size): the kept copy is what is read, so nothing was converted again.
    const marked = new Uint8Array(kept?.bytes as Uint8Array);
    marked[marked.length - 2] = 0x20;
    disk.files.set(derivedPath('s'), { ...(kept as NonNullable<typeof kept>), bytes: marked });
    expect(new Uint8Array(await ((await store.readConversion('s')) as Blob).arrayBuffer())).toEqual(marked);

    // The pi view: sizes and bytes are the conversion's; the store keeps the original's.
    const pi = piView(store);
    expect((await pi.get('s'))?.size).toBe(marked.length);
    expect((await store.get('s'))?.size).toBe(early.length);
    expect(new Uint8Array(await (await store.readFile('s')).arrayBuffer())).toEqual(early);

    // The original grows (as an import's append does): the conversion is made again from it.
    await store.appendRaw('s', whole.subarray(early.length));
    const grown = toPiSession(whole)?.text;
    expect(await ((await store.readConversion('s')) as Blob).text()).toBe(grown);
    expect(new TextDecoder().decode(await pi.readBytes('s'))).toBe(grown);
    expect((await store.get('s'))?.piSize).toBe(new TextEncoder().encode(grown).length);

    // Never written as pi: appending lines or replacing the file is refused, the bytes stay.
    await expect(store.appendLines('s', new TextEncoder().encode('{"type":"label"}\n'))).rejects.toMatchObject({ code: 'unsupported' });
    await expect(store.replace('s', once(new Uint8Array(1)))).rejects.toMatchObject({ code: 'unsupported' });
    expect((await store.readBytes('s')).length).toBe(whole.length);

    await store.trash('s');
    expect(disk.files.has(derivedPath('s'))).toBe(false);
  });

  test('a pi file has no conversion', async () => {
    const { store } = memoryStore({ now: () => 1 });
    const text = `${JSON.stringify({ type: 'session', version: 3, id: 'p', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/' })}\n`;
    const s = await store.create('p', once(new TextEncoder().encode(text)));
    expect(s.piSize).toBeUndefined();
    expect(await store.readConversion('p')).toBeNull();
  });
});
