// Markdown copies of real sessions compared with committed expected files (read by a person, and
// checked to read well on GitHub: header table, fenced code with its language, tool results in
// <details>). Run with UPDATE_EXPECTED=1 to rewrite them after a deliberate change.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse } from '../../../src/core/index.ts';
import { renderMarkdown, type MarkdownOptions } from '../../../src/core/share/markdown.ts';
import { codeSpan, fence } from '../../../src/core/share/md-text.ts';

const real = (name: string) => parse(new Uint8Array(readFileSync(new URL(`../../../fixtures/real/${name}`, import.meta.url))));
const expectedUrl = (name: string) => new URL(`../../../fixtures/share/markdown/${name}`, import.meta.url);

const cases: Array<[string, string, MarkdownOptions]> = [
  ['frinfo702-dotfiles-branch-summary.jsonl', 'branch-summary.full.md', { mode: 'full', thinking: true, images: 'files' }],
  ['xiayongchao-pi-demo-branch.jsonl', 'pi-demo-branch.focused.md', { mode: 'focused', thinking: false, images: 'omit' }],
  ['elithrar-dotfiles-codex-gpt55.jsonl', 'codex-gpt55.full.md', { mode: 'full', thinking: false, images: 'omit' }],
  ['elithrar-dotfiles-codex-gpt55.jsonl', 'codex-gpt55.focused.md', { mode: 'focused', thinking: false, images: 'omit' }],
  ['frinfo702-dotfiles-image.jsonl', 'image.full.md', { mode: 'full', thinking: true, images: 'files' }],
];

describe('Markdown of real sessions', () => {
  for (const [fixture, expected, options] of cases) {
    test(`${fixture} → ${expected}`, () => {
      const { markdown } = renderMarkdown(real(fixture), options);
      if (process.env.UPDATE_EXPECTED) writeFileSync(expectedUrl(expected), markdown);
      expect(markdown).toBe(readFileSync(expectedUrl(expected), 'utf8'));
    });
  }

  test('the head names title, date, project, models and totals', () => {
    const { markdown } = renderMarkdown(real('elithrar-dotfiles-codex-gpt55.jsonl'), { mode: 'focused', thinking: false, images: 'omit' });
    const head = markdown.split('\n').slice(0, 12).join('\n');
    expect(head).toMatch(/^# .+\n\n\| \| \|\n\|---\|---\|\n\| Date \| 2026-06-30 01:14 UTC \|/);
    expect(head).toContain('| Project | `/Users/matt/repos/minipro-tui` |');
    expect(head).toContain('| Models | `openai-codex/gpt-5.5` |');
    expect(head).toMatch(/\| Tokens \| [\d,]+ \([\d,]+ output\) \|/);
  });

  test('an image goes beside the text as a file, or is left out with a note', () => {
    const session = real('frinfo702-dotfiles-image.jsonl');
    const withFiles = renderMarkdown(session, { mode: 'full', thinking: false, images: 'files' });
    expect(withFiles.images).toHaveLength(1);
    expect(withFiles.images[0].name).toMatch(/^images\/image-1\.(png|jpg)$/);
    expect(withFiles.markdown).toContain(`![image 1](${withFiles.images[0].name})`);
    const without = renderMarkdown(session, { mode: 'full', thinking: false, images: 'omit' });
    expect(without.images).toEqual([]);
    expect(without.markdown).toContain('*(image left out)*');
  });

  test('focused: one line per tool call, no results; full: results folded in <details> with the file language', () => {
    const session = real('elithrar-dotfiles-codex-gpt55.jsonl');
    const focused = renderMarkdown(session, { mode: 'focused', thinking: false, images: 'omit' }).markdown;
    expect(focused).not.toContain('<details><summary>Result of');
    expect(focused).toMatch(/^- `read` `.+`$/m);
    const full = renderMarkdown(session, { mode: 'full', thinking: false, images: 'omit' }).markdown;
    expect(full).toMatch(/<details><summary>Result of <code>read<\/code> \(\d+ lines?\)<\/summary>/);
  });

  test('a fence is longer than any backtick run inside; a code span holds backticks', () => {
    expect(fence('a ``` b', 'ts')).toBe('````ts\na ``` b\n````');
    expect(codeSpan('x `y` z')).toBe('``x `y` z``');
  });
});
