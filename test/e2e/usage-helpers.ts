// What the Usage e2e tests share: sessions made here (turns at given times with usage, one with a
// hostile title), imported with the clock fixed before Usage is opened, and a heatmap day's link.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { dropFiles, importSummary, IMPORTED, openEmptyLibrary, root } from './app-helpers.ts';

export const shots = resolve(root, 'reports/screenshots');
mkdirSync(shots, { recursive: true });

export interface Turn {
  at: string;
  input: number;
  output: number;
  cacheRead?: number;
  cost?: number;
  model?: string;
  toolError?: boolean;
}

/** A session whose assistant turns happen at the given UTC times, with their usage. */
export function session(id: string, title: string, cwd: string, turns: Turn[]): { name: string; text: string } {
  const lines: unknown[] = [{ type: 'session', version: 3, id, timestamp: turns[0].at, cwd, title }];
  let parent: string | null = null;
  turns.forEach((t, i) => {
    const u = `${id.slice(0, 4)}u${i}`;
    const a = `${id.slice(0, 4)}a${i}`;
    lines.push({ type: 'message', id: u, parentId: parent, timestamp: t.at, message: { role: 'user', content: `question ${i}`, timestamp: Date.parse(t.at) } });
    const cacheRead = t.cacheRead ?? 0;
    const usage: Record<string, unknown> = { input: t.input, output: t.output, cacheRead, cacheWrite: 0, totalTokens: t.input + t.output + cacheRead };
    if (t.cost !== undefined) usage.cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: t.cost };
    const content: unknown[] = [{ type: 'text', text: `answer ${i}` }];
    if (t.toolError) content.push({ type: 'toolCall', id: `${a}c`, name: 'bash', arguments: { command: 'false' } });
    lines.push({
      type: 'message',
      id: a,
      parentId: u,
      timestamp: t.at,
      message: {
        role: 'assistant',
        content,
        provider: 'acme',
        model: t.model ?? 'model-1',
        api: 'openai-completions',
        usage,
        stopReason: t.toolError ? 'toolUse' : 'stop',
        timestamp: Date.parse(t.at),
      },
    });
    parent = a;
    if (t.toolError) {
      const r = `${id.slice(0, 4)}r${i}`;
      lines.push({
        type: 'message',
        id: r,
        parentId: a,
        timestamp: t.at,
        message: {
          role: 'toolResult',
          toolCallId: `${a}c`,
          toolName: 'bash',
          content: [{ type: 'text', text: 'exit 1' }],
          isError: true,
          timestamp: Date.parse(t.at),
        },
      });
      parent = r;
    }
  });
  return { name: `${id}.jsonl`, text: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' };
}

export const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
// A: two turns 40 minutes apart around midnight UTC (20→21 Nov); B: one turn at 18:40 UTC on 21 Nov.
export const A = session('aaaa0000-0000-4000-8000-000000000001', 'Midnight session', '/home/u/alpha', [
  { at: '2026-11-20T23:30:00.000Z', input: 1000, output: 200, cacheRead: 3000, cost: 1 },
  { at: '2026-11-21T00:10:00.000Z', input: 100, output: 20, cost: 0.5, toolError: true },
]);
export const B = session('bbbb0000-0000-4000-8000-000000000002', HOSTILE, '/home/u/beta', [
  { at: '2026-11-21T18:40:00.000Z', input: 500, output: 50, model: 'model-2' },
]);

/** Imports A and B with the clock fixed on 25 Nov 2026 (the default range is the last 30 days), then opens Usage from the library. */
export async function openUsage(page: Page) {
  await page.clock.setFixedTime(new Date('2026-11-25T12:00:00.000Z'));
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await openEmptyLibrary(page);
  await dropFiles(page, [A, B]);
  await expect(importSummary(page)).toContainText('Added: 2', IMPORTED);
  await page.getByRole('link', { name: 'Usage', exact: true }).click();
  // The whole screen: the sections under the first screenful are drawn after it.
  await expect(page.locator('main[data-usage-whole="2"]')).toBeVisible();
  return dialogs;
}

/** The link of a local day in the heatmap. */
export const dayLink = (page: Page, day: string) => page.locator(`svg.heatmap a[href="#/usage?day=${day}"]`);
