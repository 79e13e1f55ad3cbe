// The reader on a phone, in real Chromium: find, thinking headers, the picture viewer, labels from
// the reader, exporting the branch on screen, notice and error cards.
import AxeBuilder from '@axe-core/playwright';
import { type CDPSession, expect, test, type Page } from '@playwright/test';
import { dropFiles, fixture, SAMPLE } from './app-helpers.ts';
import { UX } from './reader-ux-fixture.ts';
import { row, openUx, openUxAgain, storedLines, idsOf, colours, contrast } from './reader-ux-helpers.ts';

test.describe('reading', () => {
  test.describe.configure({ timeout: 180_000 });

  test('find, thinking headers, notice and error cards in both themes, exporting the branch on screen', async ({ page }) => {
    await openUx(page);

    await test.step('find opens what holds the current hit (closed thinking, the tail of a tool output) and says "Searching…" until it knows', async () => {
      const assistant = row(page, UX.assistant);
      // Every text the count shows, recorded as it changes (no sampling, no timing).
      await page.evaluate(() => {
        const w = window as unknown as { __counts: string[] };
        w.__counts = [];
        new MutationObserver(() => {
          const el = document.querySelector('.rd-find-count');
          if (el) w.__counts.push(el.textContent ?? '');
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await page.keyboard.press('/');
      const box = page.getByRole('searchbox', { name: 'Find in session' });
      await box.fill('quokka');
      await expect(page.locator('.rd-find-count')).toHaveText('1 of 1');
      const counts = await page.evaluate(() => (window as unknown as { __counts: string[] }).__counts);
      expect(counts).toContain('Searching…');
      expect(counts).not.toContain('No matches');
      // The thinking that holds the hit is open and its text on screen.
      await expect(assistant.locator('details.rd-thinking').first()).toHaveAttribute('open', '');
      await expect(assistant.getByText('The quokka hides in the thinking.')).toBeVisible();
      // Past "N more lines": the output opens to show line 25.
      await box.fill('wombat');
      await expect(page.locator('.rd-find-count')).toHaveText('1 of 1');
      await expect(assistant.locator('.rd-output pre').filter({ hasText: 'line 25: the wombat is here' })).toBeVisible();
      await expect(assistant.getByRole('button', { name: 'Show less' })).toBeVisible();
      // A word that is nowhere: "No matches" only once the answer came.
      await box.fill('no-such-word-anywhere');
      await expect(page.locator('.rd-find-count')).toHaveText('No matches');
    });

    await test.step('thinking with only a signature says it is encrypted reasoning; thinking headers show that they open', async () => {
      await openUxAgain(page, UX.assistant);
      const thinking = row(page, UX.assistant).locator('details.rd-thinking');
      await expect(thinking).toHaveCount(2);
      const signed = thinking.nth(1);
      await expect(signed.locator('summary')).toHaveText('Thinking (encrypted)');
      await signed.locator('summary').click();
      await expect(signed.getByText(/Encrypted reasoning/)).toBeVisible();
      // A chevron before each header, turned when open.
      const chevron = (i: number) =>
        thinking
          .nth(i)
          .locator('summary')
          .evaluate((el) => {
            const s = getComputedStyle(el, '::before');
            return { content: s.content, transform: s.transform, width: Number.parseFloat(s.width) };
          });
      const closed = await chevron(0);
      expect(closed.content).not.toBe('none');
      expect(closed.width).toBeGreaterThan(3);
      // The turn is a CSS transition: the open one's transform reaches its end value after the click.
      await expect.poll(async () => (await chevron(1)).transform).not.toBe(closed.transform);
    });

    for (const scheme of ['light', 'dark'] as const) {
      await test.step(`notice and error cards look different (colour and icon) and pass AA contrast, ${scheme} theme`, async () => {
        await page.emulateMedia({ colorScheme: scheme });
        await openUxAgain(page);
        const notice = await colours(page, UX.notice);
        const error = await colours(page, UX.error);
        // Different icons, and border colours far apart (not two shades of orange-red).
        expect(notice.icon).toBeTruthy();
        expect(error.icon).toBeTruthy();
        expect(notice.icon).not.toBe(error.icon);
        const distance = Math.hypot(...notice.border.map((v, i) => v - error.border[i]));
        expect(distance).toBeGreaterThan(120);
        for (const card of [notice, error]) {
          expect(contrast(card.who, card.background)).toBeGreaterThanOrEqual(4.5);
          // The coloured edge is what tells them apart: 3:1 against the card (WCAG 1.4.11).
          expect(contrast(card.border, card.background)).toBeGreaterThanOrEqual(3);
        }
        const axe = await new AxeBuilder({ page }).include('.rd-notice').withRules(['color-contrast']).analyze();
        expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      });
    }

    await test.step('the branch picked in the navigator is what "Export active branch" exports, from the reader and from the library', async () => {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto('/');
      await expect(page.locator(`a[href="#/s/${encodeURIComponent(UX.id)}"]`).first()).toBeAttached();
      const id = SAMPLE.id;
      await dropFiles(page, [{ name: 'welcome.jsonl', text: fixture(SAMPLE.path).toString('utf8') }]);
      await expect(page.locator(`a[href="#/s/${encodeURIComponent(id)}"]`).first()).toBeAttached({ timeout: 20_000 });
      await page.goto(`/#/s/${encodeURIComponent(id)}`);
      await expect(row(page, 'd7e8f90a')).toBeInViewport();
      // The file's own leaf first: its branch holds the fix, not the other try.
      let ids = await idsOf(
        (async () => {
          const d = page.waitForEvent('download');
          await page.getByRole('button', { name: 'Export this branch' }).click();
          return d;
        })(),
      );
      expect(ids).toContain('d0e9f2ab');
      expect(ids).not.toContain('a3bc25de');
      // Pick the other branch in the navigator.
      await page
        .getByRole('navigation', { name: 'Branches' })
        .getByRole('button', { name: /Another try/ })
        .click();
      await expect(page).toHaveURL(/leaf=a3bc25de/);
      await expect(row(page, 'a3bc25de')).toBeInViewport();
      ids = await idsOf(
        (async () => {
          const d = page.waitForEvent('download');
          await page.getByRole('button', { name: 'Export this branch' }).click();
          return d;
        })(),
      );
      expect(ids).toEqual([id, 'a1f0c3d2', 'b2e1d4c3', 'c3d2e5f4', 'f2ab14cd', 'a3bc25de']);
      // Back in the library (after a reload, too), the menu exports the branch last on screen.
      await page.goto('/');
      await page.reload();
      await page.getByLabel('Actions for Fix the tide table parser').click();
      const fromLibrary = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export active branch' }).click();
      expect(await idsOf(fromLibrary)).toEqual([id, 'a1f0c3d2', 'b2e1d4c3', 'c3d2e5f4', 'f2ab14cd', 'a3bc25de']);
    });
  });
});

test.describe('on a phone', () => {
  test.describe.configure({ timeout: 180_000 });
  test.use({ viewport: { width: 390, height: 800 }, hasTouch: true, isMobile: true });

  /** Touches through Chromium's input pipeline (the browser turns them into pointer events, as on a phone). */
  let cdp: CDPSession;
  async function touch(_page: Page, type: 'touchStart' | 'touchMove' | 'touchEnd', points: Array<[number, number]>) {
    await cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
  }

  test('the picture viewer: tap opens full screen, pinch zooms, a drag pans, swipe shows the next picture, back, ✕ and Escape close; labels from the reader: add, change and clear with taps, each a label entry in the file, label rows name the entry', async ({
    page,
  }) => {
    await test.step('the picture viewer: tap opens full screen; pinch zooms, a drag pans; swipe shows the next picture; back, ✕ and Escape close', async () => {
      cdp = await page.context().newCDPSession(page);
      await openUx(page, UX.pictures);
      const pictures = row(page, UX.pictures);
      const first = pictures.getByRole('button', { name: /Image 1 from the user/ });
      await expect(first.locator('img')).toHaveAttribute('src', /^blob:/);
      const urlBefore = page.url();
      await first.tap();
      const viewer = page.getByRole('dialog', { name: 'Image 1 of 2' });
      await expect(viewer).toBeVisible();
      const img = viewer.locator('img');
      await expect(img).toHaveAttribute('src', /^blob:/);
      expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1400);
      const fitted = (await img.boundingBox())!;
      expect(fitted.width).toBeLessThanOrEqual(390);

      // Pinch out about the centre: two fingers from 60 px apart to 260 px apart.
      const stage = (await viewer.locator('.iv-stage').boundingBox())!;
      const cx = stage.x + stage.width / 2;
      const cy = stage.y + stage.height / 2;
      await touch(page, 'touchStart', [
        [cx - 30, cy],
        [cx + 30, cy],
      ]);
      for (let d = 40; d <= 130; d += 10)
        await touch(page, 'touchMove', [
          [cx - d, cy],
          [cx + d, cy],
        ]);
      await touch(page, 'touchEnd', []);
      await expect.poll(async () => Number(await viewer.locator('.iv-stage').getAttribute('data-scale'))).toBeGreaterThan(3);
      const zoomed = (await img.boundingBox())!;
      expect(zoomed.width).toBeGreaterThan(fitted.width * 3);
      // One finger pans the zoomed picture (and does not change picture).
      await touch(page, 'touchStart', [[cx, cy]]);
      for (let dx = 10; dx <= 100; dx += 10) await touch(page, 'touchMove', [[cx + dx, cy + dx / 2]]);
      await touch(page, 'touchEnd', []);
      await expect.poll(async () => (await img.boundingBox())!.x).toBeGreaterThan(zoomed.x + 50);
      await expect(page.getByRole('dialog', { name: 'Image 1 of 2' })).toBeVisible();

      // Escape closes; the reader is where it was.
      await page.keyboard.press('Escape');
      await expect(viewer).toHaveCount(0);
      await expect(pictures).toBeInViewport();

      // Opened again it fits the screen; a swipe to the left shows the next picture of the session.
      await first.tap();
      await expect(page.getByRole('dialog', { name: 'Image 1 of 2' })).toBeVisible();
      expect(Number(await page.locator('.iv-stage').getAttribute('data-scale'))).toBe(1);
      await touch(page, 'touchStart', [[cx + 120, cy]]);
      for (let dx = 100; dx >= -120; dx -= 20) await touch(page, 'touchMove', [[cx + dx, cy]]);
      await touch(page, 'touchEnd', []);
      const second = page.getByRole('dialog', { name: 'Image 2 of 2' });
      await expect(second).toBeVisible();
      await expect.poll(() => second.locator('img').evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(300);

      // The browser's back closes the viewer and stays in the reader.
      await page.goBack();
      await expect(second).toHaveCount(0);
      expect(page.url()).toBe(urlBefore);
      await expect(pictures).toBeInViewport();

      // The close button closes too, and takes its history entry with it. (Opened with a click: after
      // the emulated swipe and the back navigation, an emulated touch tap here yields no click event
      // in the app (nor on the close button), though clicks work.)
      await first.click();
      await page.getByRole('button', { name: 'Close the picture' }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      expect(page.url()).toBe(urlBefore);
      expect(await page.evaluate(() => (history.state as { rdViewer?: boolean } | null)?.rdViewer ?? false)).toBe(false);
    });

    await test.step('labels: add, change and clear a label with taps; each is a label entry in the file; label rows name the entry', async () => {
      await page.setViewportSize({ width: 360, height: 760 });
      await openUxAgain(page, UX.reply);
      const reply = row(page, UX.reply);
      await reply.getByRole('button', { name: 'Label #6' }).tap();
      const form = page.getByRole('form', { name: 'Label of #6' });
      await form.getByRole('textbox', { name: 'Label' }).fill('the answer');
      await form.getByRole('button', { name: 'Save' }).tap();
      await expect(form).toHaveCount(0);
      await expect(reply.locator('.rd-label')).toHaveText('the answer');
      // The new label row says which entry it labels: its #N and first words, not its id.
      const labelRow = page.locator('.rd-divider.label').last();
      await expect(labelRow).toHaveText('Labelled “the answer” on #6 “Nice pictures.”');
      await expect(labelRow).not.toContainText(UX.reply);

      // Change it: the form starts with the current label.
      await reply.getByRole('button', { name: 'Change the label of #6' }).tap();
      const box = page.getByRole('form', { name: 'Label of #6' }).getByRole('textbox', { name: 'Label' });
      await expect(box).toHaveValue('the answer');
      await box.fill('best answer');
      await page.getByRole('form', { name: 'Label of #6' }).getByRole('button', { name: 'Save' }).tap();
      await expect(reply.locator('.rd-label')).toHaveText('best answer');

      // Clear it.
      await reply.getByRole('button', { name: 'Change the label of #6' }).tap();
      await page.getByRole('form', { name: 'Label of #6' }).getByRole('button', { name: 'Clear' }).tap();
      await expect(reply.locator('.rd-label')).toHaveCount(0);
      await expect(page.locator('.rd-divider.label').last()).toHaveText('Label cleared on #6 “Nice pictures.”');

      // In the file: three label entries after the leaf, as pi's appendLabelChange writes them.
      const lines = await storedLines(page);
      const labels = lines.filter((l) => l.type === 'label');
      expect(labels.map((l) => [l.targetId, l.label])).toEqual([
        [UX.reply, 'the answer'],
        [UX.reply, 'best answer'],
        [UX.reply, undefined],
      ]);
      expect(labels[0].parentId).toBe(UX.last);
      expect(labels[1].parentId).toBe(labels[0].id);
      for (const l of labels) {
        expect(Object.keys(l).slice(0, 4)).toEqual(['type', 'id', 'parentId', 'timestamp']);
        expect(typeof l.id).toBe('string');
      }
    });
  });
});
