// A cost of exactly 0 beside tokens (pi with no price for the model; Claude Code and Codex, which
// store no prices) reads "no price recorded" on the card, in the reader's turns, in Stats and on
// the Usage screen: never "$0.0000" or "$0.00". The files are real sessions.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { toPiSession } from '../../src/core/formats/index.ts';
import { parse } from '../../src/core/index.ts';
import { dropFiles, fixture, IMPORTED, openEmptyLibrary, root } from './app-helpers.ts';
import { showViewOptions, SIZES } from './sizes.ts';

test.describe.configure({ timeout: 120_000 });

const PI_UNPRICED = ['real/castai-kimchi-dev-session.jsonl', 'real/alhajjemohammad44-stack-93-coffee-shop-errors-aborted.jsonl'];
const CLAUDE = 'other-agents/claude/LAF-US-IDAHO-VAULT-v2.1.101-compact6-subagent.jsonl';
const idOf = (path: string) => JSON.parse(fixture(path).toString('utf8').split('\n')[0]).id as string;
const claudeId = () => {
  const c = toPiSession(new Uint8Array(readFileSync(resolve(root, 'fixtures', CLAUDE))), { file: CLAUDE });
  return String(parse(c!.text).header?.id);
};
const card = (page: Page, id: string) => page.locator('.session-card').filter({ has: page.locator(`a.session-title[href="#/s/${encodeURIComponent(id)}"]`) });

/** The first assistant entry with usage (the reader is opened at it). */
function firstTurn(text: string): string {
  for (const line of text.split('\n')) if (line.includes('"usage"') && JSON.parse(line).message?.role === 'assistant') return JSON.parse(line).id;
  throw new Error('no turn');
}

/** Each file holds assistant turns with tokens and every cost 0: the premise of the test, checked on the file. */
function unpricedTurns(path: string): number {
  let n = 0;
  for (const line of fixture(path).toString('utf8').split('\n')) {
    if (!line.includes('"assistant"')) continue;
    const u = JSON.parse(line).message?.usage;
    if (!u) continue;
    expect(u.cost.total).toBe(0);
    if (u.totalTokens > 0) n++;
  }
  return n;
}

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use(size.use);

    test('a cost of 0 beside tokens reads "no price recorded" on cards, in the reader, Stats and Usage', async ({ page }) => {
      for (const path of PI_UNPRICED) expect(unpricedTurns(path)).toBeGreaterThan(0);
      await openEmptyLibrary(page);
      await dropFiles(
        page,
        [...PI_UNPRICED, CLAUDE].map((path) => ({ name: path.split('/').pop()!, text: fixture(path).toString('utf8') })),
      );
      const ids = [...PI_UNPRICED.map(idOf), claudeId()];
      for (const id of ids) await expect(card(page, id)).toBeVisible(IMPORTED);
      for (const id of ids) await expect(card(page, id).locator('.facts')).toContainText('no price recorded');

      const claudeText = parse(toPiSession(new Uint8Array(readFileSync(resolve(root, 'fixtures', CLAUDE))), { file: CLAUDE })!.text);
      const turns = [
        firstTurn(fixture(PI_UNPRICED[0]).toString('utf8')),
        String(claudeText.entries.find((e) => e.type === 'message' && (e.message as { usage?: unknown }).usage)?.id),
      ];
      for (const [i, id] of [ids[0], ids[2]].entries()) {
        await page.goto(`/#/s/${encodeURIComponent(id)}?entry=${encodeURIComponent(turns[i])}`);
        const turn = page.locator(`.rd-row[data-entry="${turns[i]}"] .rd-usage-box > summary`);
        await expect(turn).toContainText('no price recorded');
        await expect(page.locator('.rd-usage-box > summary', { hasText: '$' })).toHaveCount(0);
        await showViewOptions(page);
        await page.getByRole('tab', { name: 'Stats' }).click();
        const cost = page.locator('.rd-stats-table').first().getByRole('row', { name: /^Cost/ });
        await expect(cost.getByRole('cell')).toHaveText(['no price recorded', 'no price recorded']);
        await page.getByRole('tab', { name: 'Transcript' }).click();
        await page.getByRole('button', { name: 'Back to the library' }).click();
      }

      await page.getByRole('link', { name: 'Usage', exact: true }).click();
      await page.getByLabel('Range').selectOption('all');
      const top = page.getByRole('region', { name: 'Sessions that cost most' });
      await expect(top.locator('li')).toHaveCount(3);
      for (const li of await top.locator('li').all()) {
        await expect(li.locator('.usage-bar-figures')).toContainText('no price recorded');
        await expect(li.locator('.usage-bar-figures')).not.toContainText('$');
      }
      await expect(page.getByRole('region', { name: 'Totals' }).locator('.usage-figure', { hasText: 'Cost' }).locator('dd')).toHaveText('no price recorded');
    });
  });
}
