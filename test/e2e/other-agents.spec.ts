// Claude Code and Codex sessions in the real app: dropped on the library, named by their
// agent on their cards, read from their pi conversion (the first prompt, a tool card, thinking),
// found by search, read-only with a note, and exported as a pi session our core reads. What the
// test expects comes from the source files and the core's own conversion of them (their ids).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { toPiSession } from '../../src/core/formats/index.ts';
import { parse, text, type Entry } from '../../src/core/index.ts';
import { dropFiles, IMPORTED, openEmptyLibrary, root } from './app-helpers.ts';
import { SIZES } from './sizes.ts';

test.describe.configure({ timeout: 120_000 });

const CLAUDE = 'claude/Xu-Wentao-dotfile-v2.1.78-worktree.jsonl';
const CLAUDE_CHILD = 'claude/Xu-Wentao-dotfile-v2.1.78-worktree-subagent.jsonl';
const CODEX = 'codex/Fegor-Basic-Rootkit-v0.40.0.jsonl';
const bytesOf = (path: string) => new Uint8Array(readFileSync(resolve(root, 'fixtures/other-agents', path)));

/** The session as the core converts it: its id, its entries, and the first entries with a tool call and with thinking. */
function converted(path: string) {
  const c = toPiSession(bytesOf(path), { file: path });
  if (!c) throw new Error(`${path} is not another agent's file`);
  const s = parse(c.text);
  const parts = (e: Entry) =>
    (e.message as { role?: string; content?: unknown } | undefined)?.role === 'assistant' ? ((e.message as { content: unknown[] }).content ?? []) : [];
  const has = (type: string) => s.entries.find((e) => Array.isArray(parts(e)) && parts(e).some((p) => (p as { type?: string })?.type === type));
  return { id: String(s.header?.id), entries: s.entries, tool: has('toolCall'), thinking: has('thinking') };
}

/** The source's first typed prompt (Claude Code: a user record with text; Codex: its first user_message event). */
function firstPrompt(path: string): string {
  for (const line of new TextDecoder().decode(bytesOf(path)).split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line);
    if (r.type === 'user' && !r.isMeta && typeof r.message?.content === 'string' && !r.message.content.startsWith('<')) return r.message.content;
    if (r.type === 'event_msg' && r.payload?.type === 'user_message' && String(r.payload.message).trim()) return String(r.payload.message);
  }
  throw new Error(`no prompt in ${path}`);
}

const link = (page: Page, id: string) => page.locator(`a.session-title[href="#/s/${encodeURIComponent(id)}"]`);
const row = (page: Page, entryId: string) => page.locator(`.rd-row[data-entry="${entryId}"]`);

test('Claude Code and Codex sessions: named, read, found, read-only, exported as pi sessions', async ({ page }) => {
  const claude = converted(CLAUDE);
  const codex = converted(CODEX);
  await openEmptyLibrary(page);
  await dropFiles(page, [
    { name: `${claude.id}.jsonl`, text: new TextDecoder().decode(bytesOf(CLAUDE)) },
    { name: 'rollout-2025-11-11T16-27-25.jsonl', text: new TextDecoder().decode(bytesOf(CODEX)) },
  ]);
  await expect(link(page, claude.id)).toBeVisible(IMPORTED);
  await expect(link(page, codex.id)).toBeVisible(IMPORTED);
  const cardOf = (id: string) => page.locator('.session-card').filter({ has: link(page, id) });
  await expect(cardOf(claude.id).locator('.badge.agent')).toHaveText('Claude Code');
  await expect(cardOf(codex.id).locator('.badge.agent')).toHaveText('Codex');
  // Files these agents wrote are not damaged files: no problem badge.
  await expect(cardOf(claude.id).locator('.badge.warn')).toHaveCount(0);
  await expect(cardOf(codex.id).locator('.badge.warn')).toHaveCount(0);

  // Search reads the conversion: a word from the Codex prompt finds that session.
  const word = firstPrompt(CODEX).match(/[A-Za-z]{8,}/)?.[0] as string;
  await page.getByLabel('Search sessions').fill(word);
  const results = page.getByRole('region', { name: 'Search results' });
  await expect(results.locator(`a[href^="#/s/${encodeURIComponent(codex.id)}"]`).first()).toBeVisible();

  // The reader: the first prompt, the read-only note, a tool card and thinking where the conversion has them.
  const prompt = firstPrompt(CLAUDE).replace(/\s+/g, ' ').trim().slice(0, 24);
  const asked = claude.entries.find(
    (e) => (e.message as { role?: string } | undefined)?.role === 'user' && text(e.message).replace(/\s+/g, ' ').includes(prompt),
  );
  expect(asked).toBeTruthy();
  await page.goto(`/#/s/${encodeURIComponent(claude.id)}?entry=${encodeURIComponent(String(asked?.id))}`);
  await expect(row(page, String(asked?.id))).toContainText(prompt);
  await expect(page.getByRole('note')).toContainText('Written by Claude Code — read-only here');
  await expect(page.locator('.rd-label-btn')).toHaveCount(0);
  await page.goto(`/#/s/${encodeURIComponent(claude.id)}?entry=${encodeURIComponent(String(claude.tool?.id))}`);
  await expect(row(page, String(claude.tool?.id)).locator('.rd-tool').first()).toBeVisible();
  await page.goto(`/#/s/${encodeURIComponent(claude.id)}?entry=${encodeURIComponent(String(claude.thinking?.id))}`);
  await expect(row(page, String(claude.thinking?.id)).locator('.rd-thinking').first()).toBeAttached();

  // Export as a pi session: pi's file name, and the same session our core reads.
  await page.locator('details.rd-export > summary').click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as a pi session' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z_${claude.id}\\.jsonl$`));
  const exported = parse(readFileSync(await file.path(), 'utf8'));
  expect(exported.header?.id).toBe(claude.id);
  expect(exported.entries.length).toBe(claude.entries.length);
});

// A Claude Code subagent file dropped loose (agent-<id>.jsonl, no folder around it) nests under its
// parent whichever of the two arrives first: its sidechain records carry the parent's session id.
for (const [size, childFirst] of SIZES.map((s, i) => [s, i === 0] as const)) {
  test.describe(size.name, () => {
    test.use(size.use);
    test(`a loose Claude Code subagent file dropped ${childFirst ? 'before' : 'after'} its parent is listed under it`, async ({ page }) => {
      // The parent as Claude Code had written it a little way in (its first 40 records), which keeps the drop small.
      const parentText = `${new TextDecoder().decode(bytesOf(CLAUDE)).split('\n').slice(0, 40).join('\n')}\n`;
      const parentId = parse(toPiSession(new TextEncoder().encode(parentText), { file: 'parent.jsonl' })?.text ?? '').header?.id;
      const childText = new TextDecoder().decode(bytesOf(CLAUDE_CHILD));
      const childRecords = childText
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      const parentSession = JSON.parse(parentText.split('\n')[0]).sessionId;
      expect(childRecords.every((r) => r.isSidechain === true && r.sessionId === parentSession)).toBe(true);
      const childId = converted(CLAUDE_CHILD).id;
      const files = [
        { name: `${parentSession}.jsonl`, text: parentText },
        { name: `agent-${childRecords[0].agentId}.jsonl`, text: childText },
      ];
      if (childFirst) files.reverse();
      await openEmptyLibrary(page);
      await dropFiles(page, [files[0]]);
      await expect(page.locator(`.session-card[data-session-id="${childFirst ? childId : parentId}"]`)).toBeVisible(IMPORTED);
      await dropFiles(page, [files[1]]);
      const parentCard = page.locator(`.session-card[data-session-id="${parentId}"]`);
      await expect(parentCard.getByRole('link', { name: '1 subagent' })).toBeVisible(IMPORTED);
      await expect(page.locator('.session-card')).toHaveCount(1);
      await parentCard.getByRole('link', { name: '1 subagent' }).click();
      await expect(page).toHaveURL(new RegExp(`#/s/${childId}$`));
      await expect(page.getByRole('navigation', { name: 'Subagent of' })).toBeVisible();
    });
  });
}
