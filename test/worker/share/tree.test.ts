// A cleaned copy is the same session: every id and parent as before (pi's SessionManager and our
// core both read it so), with every strip option on and every hit redacted; the branch copy holds
// exactly the branch. Imported here again it is kept beside the original as a variant.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { afterAll, describe, expect, test } from 'vitest';
import { branch, parse } from '../../../src/core/index.ts';
import { createApi } from '../../../src/worker/api.ts';
import { memoryStore } from '../../storage/helpers.ts';
import { corpus } from './corpus.ts';

const tmp = mkdtempSync(join(tmpdir(), 'rho-share-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ALL_STRIP = { thinking: true, signatures: true, providerPayloads: true, toolDetails: true, images: true, toolOutputLines: 2 };
const real = (name: string) => readFileSync(new URL(`../../../fixtures/real/${name}`, import.meta.url), 'utf8');
const cases: Array<[string, string]> = [
  ['corpus', corpus().text],
  ...[
    'frinfo702-dotfiles-branch-summary.jsonl',
    'xiayongchao-pi-demo-branch.jsonl',
    'elithrar-dotfiles-codex-gpt55.jsonl',
    'frinfo702-dotfiles-image.jsonl',
  ].map((n) => [n, real(n)] as [string, string]),
];

/** pi's view of a file: every entry's id and parent, in order. */
function piTree(name: string, text: string): Array<[string, string | null]> {
  const path = join(tmp, `${name.replace(/\W/g, '_')}-${Math.random().toString(16).slice(2)}.jsonl`);
  writeFileSync(path, text);
  return SessionManager.open(path, tmp)
    .getEntries()
    .map((e) => [e.id, e.parentId]);
}

const ours = (text: string) => parse(text).entries.map((e) => [e.id, e.parentId ?? null]);

describe('a cleaned copy keeps the tree', () => {
  for (const [name, text] of cases) {
    test(name, async () => {
      const { store } = memoryStore();
      const api = createApi({ store, now: () => new Date(0), randomId: () => 'abcdef01' });
      const id = (await api.importFiles({ files: [new File([text], `${name}.jsonl`)] })).items[0].id as string;
      const out = await api.exportShared({ id, format: 'jsonl', scope: 'session', strip: ALL_STRIP });
      const cleaned = await out.blob.text();
      if (name === 'corpus') expect(out.stats.changedLines).toBeGreaterThan(40);
      expect(cleaned).not.toContain('"thinking":"');
      expect(cleaned).not.toContain('thinkingSignature');
      expect(parse(cleaned).problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(ours(cleaned)).toEqual(ours(text));
      expect(piTree(name, cleaned)).toEqual(piTree(name, text));

      // The branch on screen: the header and exactly the branch's entries.
      const session = parse(text);
      const leaf = session.entries.find((e) => e.type === 'message' && session.entries.indexOf(e) > 2)?.id as string;
      const part = await (await api.exportShared({ id, format: 'jsonl', scope: 'branch', leafId: leaf })).blob.text();
      expect(ours(part).map(([x]) => x)).toEqual(branch(session, leaf).map((e) => e.id));

      // Imported again: a variant beside the original, never over it.
      const again = await api.importFiles({ files: [new File([cleaned], out.name)] });
      expect(again.items[0]).toMatchObject({ outcome: 'variant', id: `${id}~2` });
      expect(await (await api.exportSession({ id })).blob.text()).toBe(text);
    });
  }
});
