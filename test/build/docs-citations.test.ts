// Every document a comment in src/ or test/ points at exists in the repository: a `docs/…` or
// `notes/…` path (from the repository's root), a relative `./…` or `../…` path (from the citing
// file), or a bare file name (in docs/, beside the citing file, or anywhere in the repository).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** The comments of a source file (`//` to the line's end, `/* … *\/` blocks); a Markdown file is all comment. */
function commentsOf(text: string, file: string): string {
  if (file.endsWith('.md')) return text;
  const out: string[] = [];
  for (const m of text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g)) out.push(m[0]);
  return out.join('\n');
}

/** Document paths (`.md`, `.txt`) named in `comments`, as written. */
function citedDocuments(comments: string): string[] {
  const found = new Set<string>();
  // A path (with a folder) or a bare name; not part of a URL or a longer path.
  for (const m of comments.matchAll(/(?<![\w/.:-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*\w[\w.-]*\.(?:md|txt))\b/g)) found.add(m[1]);
  // An absolute path: outside any clone of the repository.
  for (const m of comments.matchAll(/(?<=[\s(`'"])(\/[\w.-]+(?:\/[\w.-]+)*\.(?:md|txt))\b/g)) found.add(m[1]);
  return [...found];
}

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const names = new Set(tracked.map((f) => basename(f)));
// Other programs' files that comments name as such (Codex's instructions file), not documents of ours.
const FOREIGN = new Set(['AGENTS.md', 'CLAUDE.md']);

/** Whether the document `cited` in `file` (relative to the root) exists, by the rules above. */
function resolves(cited: string, file: string): boolean {
  if (FOREIGN.has(cited)) return true;
  if (cited.startsWith('/')) return false;
  if (cited.startsWith('./') || cited.startsWith('../')) {
    // A document outside the repository does not count: a clone alone must explain the code.
    const target = resolve(root, dirname(file), cited);
    return !relative(root, target).startsWith('..') && existsSync(target);
  }
  if (cited.includes('/')) return existsSync(join(root, cited));
  return existsSync(join(root, 'docs', cited)) || existsSync(join(root, dirname(file), cited)) || names.has(cited);
}

// This file names made-up paths as examples of what it finds.
const self = 'test/build/docs-citations.test.ts';
const sources = tracked.filter((f) => /^(src|test)\//.test(f) && /\.(ts|tsx|mjs|js|css|md)$/.test(f) && f !== self && existsSync(join(root, f)));

describe('documents cited in comments', () => {
  test('are found in comments and nowhere else; URLs and strings are not citations', () => {
    const text = [
      '// See docs/core-api.md and session-format.md §1.2; also ../../docs/x.md and /srv/spec/format.md.',
      "const a = 'notes/keys.md'; // https://example.org/docs/page.md",
      '/** Block: notes/plan.md */',
    ].join('\n');
    expect(citedDocuments(commentsOf(text, 'test/x.ts')).sort()).toEqual([
      '../../docs/x.md',
      '/srv/spec/format.md',
      'docs/core-api.md',
      'notes/plan.md',
      'session-format.md',
    ]);
  });

  test('a missing document is reported, a present one is not', () => {
    expect(resolves('docs/session-format.md', 'src/core/index.ts')).toBe(true);
    expect(resolves('session-format.md', 'src/core/index.ts')).toBe(true);
    expect(resolves('notes/core-api.md', 'src/core/index.ts')).toBe(false);
    expect(resolves('../../docs/architecture.md', 'test/tools/typecheck.mjs')).toBe(true);
    expect(resolves('../../../shared/ARCHITECTURE.md', 'test/tools/typecheck.mjs')).toBe(false);
    expect(resolves('/work/shared/spec/session-format.md', 'test/gen/session.ts')).toBe(false);
  });

  test(`every one exists (${sources.length} files of src/ and test/)`, () => {
    const missing: string[] = [];
    for (const file of sources) {
      const comments = commentsOf(readFileSync(join(root, file), 'utf8'), file);
      for (const cited of citedDocuments(comments)) if (!resolves(cited, file)) missing.push(`${file}: ${cited}`);
    }
    expect(missing).toEqual([]);
  });
});
