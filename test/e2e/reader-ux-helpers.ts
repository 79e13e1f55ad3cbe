// What the reader UX tests share: opening the UX session (reader-ux-fixture.ts) in the reader, the
// stored file's lines, the ids in an exported branch, and the colours and contrast of a row.
import { expect, type Page } from '@playwright/test';
import { dropFiles, openEmptyLibrary } from './app-helpers.ts';
import { UX, uxSession } from './reader-ux-fixture.ts';

export const row = (page: Page, entryId: string) => page.locator(`.rd-row[data-entry="${entryId}"]`);

/** Imports the UX session by a drop and opens it in the reader (at `entry` when given). */
export async function openUx(page: Page, entry?: string): Promise<void> {
  await openEmptyLibrary(page);
  await dropFiles(page, [{ name: 'ux.jsonl', text: uxSession() }]);
  await expect(page.locator(`a[href="#/s/${encodeURIComponent(UX.id)}"]`).first()).toBeAttached({ timeout: 20_000 });
  await page.goto(`/#/s/${encodeURIComponent(UX.id)}${entry ? `?entry=${entry}` : ''}`);
  await expect(row(page, entry ?? UX.last)).toBeInViewport();
}

/** Shows the imported UX session in the reader afresh (a new load: nothing a step before opened stays open). */
export async function openUxAgain(page: Page, entry?: string): Promise<void> {
  await page.goto(`/#/s/${encodeURIComponent(UX.id)}${entry ? `?entry=${entry}` : ''}`);
  await page.reload();
  await expect(row(page, entry ?? UX.last)).toBeInViewport();
}

/** The session's file as the library's Download gives it. */
export async function storedLines(page: Page): Promise<Array<Record<string, unknown>>> {
  await page.goto('/');
  await page
    .getByRole('button', { name: `Actions for ${UX.title}` })
    .or(page.getByLabel(`Actions for ${UX.title}`))
    .first()
    .click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const path = await (await download).path();
  const { readFileSync } = await import('node:fs');
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

/** The ids of a downloaded branch export's entries. */
export async function idsOf(download: Promise<import('@playwright/test').Download>): Promise<string[]> {
  const { readFileSync } = await import('node:fs');
  return readFileSync(await (await download).path(), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).id as string);
}

/** Colours of a card as the screen shows them (any CSS colour syntax, resolved through a canvas). */
export async function colours(page: Page, entryId: string) {
  return row(page, entryId)
    .locator('.rd-notice')
    .evaluate((card) => {
      const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
      const rgb = (css: string) => {
        ctx.clearRect(0, 0, 1, 1);
        ctx.fillStyle = '#000';
        ctx.fillStyle = css;
        ctx.fillRect(0, 0, 1, 1);
        return Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3));
      };
      const s = getComputedStyle(card);
      const who = card.querySelector('.rd-who')!;
      return {
        background: rgb(s.backgroundColor),
        border: rgb(s.borderLeftColor),
        who: rgb(getComputedStyle(who).color),
        icon: who.querySelector('svg path')?.getAttribute('d') ?? null,
      };
    });
}
export const luminance = (c: number[]) => {
  const [r, g, b] = c.map((v) => {
    const x = v / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
export const contrast = (a: number[], b: number[]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
