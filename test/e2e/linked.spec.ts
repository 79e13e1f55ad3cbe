// Linked folders in real Chromium. The directory picker is the one platform edge a test cannot
// drive, so showDirectoryPicker is replaced by a function that hands the app an OPFS directory
// handle: the same FileSystemDirectoryHandle interface a picked folder has (queryPermission,
// entries, getFile, createWritable), in the same browser. The test then writes into that folder as
// an agent does: appends, a torn last line then its completion, new sessions, a subagent folder, a
// file that diverged, a file that disappeared. Waits are for DOM changes, never for time.
import { expect, type Page, test } from '@playwright/test';
import { card, dropFiles, fixture, makeSession, openEmptyLibrary } from './app-helpers.ts';

const FOLDER = 'agent-folder';
const PROJECT = '--home-test-project--';
const PARENT_ID = '019e62c3-5249-7057-9390-c72853be72e9';
const STEM = `--Users-ken702-ghq-github.com-frinfo702-dotfiles--/2026-05-26T05-30-28-297Z_${PARENT_ID}`;

/** The picker hands back the OPFS folder the test writes in (see the opening comment). */
async function pickerGivesOpfsFolder(page: Page) {
  await page.addInitScript((name) => {
    (window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = async () =>
      (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true });
  }, FOLDER);
}

/** Writes into the agent's folder: a new file (`text`), or an append at its end (`append`). */
async function agentWrites(page: Page, path: string, text: string, how: 'new' | 'append' = 'new') {
  await page.evaluate(
    async ({ folder, path, text, how }) => {
      let dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder, { create: true });
      const parts = path.split('/');
      const name = parts.pop() as string;
      for (const p of parts) dir = await dir.getDirectoryHandle(p, { create: true });
      const file = await dir.getFileHandle(name, { create: true });
      const size = (await file.getFile()).size;
      const w = await file.createWritable({ keepExistingData: how === 'append' });
      if (how === 'append') await w.seek(size);
      await w.write(text);
      await w.close();
    },
    { folder: FOLDER, path, text, how },
  );
}

async function agentDeletes(page: Page, path: string) {
  await page.evaluate(
    async ({ folder, path }) => {
      let dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
      const parts = path.split('/');
      const name = parts.pop() as string;
      for (const p of parts) dir = await dir.getDirectoryHandle(p);
      await dir.removeEntry(name);
    },
    { folder: FOLDER, path },
  );
}

async function folderText(page: Page, path: string): Promise<string> {
  return page.evaluate(
    async ({ folder, path }) => {
      let dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
      const parts = path.split('/');
      const name = parts.pop() as string;
      for (const p of parts) dir = await dir.getDirectoryHandle(p);
      return (await (await dir.getFileHandle(name)).getFile()).text();
    },
    { folder: FOLDER, path },
  );
}

const linked = (page: Page) => page.locator('.linked-folder', { hasText: FOLDER });
const SYNC = { timeout: 30_000 };

/** A user message line (the agent's next turn). */
function userLine(id: string, parentId: string, text: string): string {
  return `${JSON.stringify({ type: 'message', id, parentId, timestamp: '2026-11-29T10:01:00.000Z', message: { role: 'user', content: [{ type: 'text', text }], timestamp: 2 } })}\n`;
}

/** A session of `turns` user messages, long enough to scroll. */
function longSession(id: string, title: string, turns: number): { text: string; last: string } {
  let text = makeSession(id, title);
  let parent = `${id.slice(0, 6)}01`;
  for (let i = 0; i < turns; i++) {
    const eid = `${id.slice(0, 4)}m${String(i).padStart(3, '0')}`;
    text += userLine(eid, parent, `Turn ${i}: ${'words '.repeat(40)}`);
    parent = eid;
  }
  return { text, last: parent };
}

test.beforeEach(async ({ page }) => {
  await pickerGivesOpfsFolder(page);
});

test('link a folder: sessions and a subagent run come in, the child opens from the message that started it and leads back', async ({ page }) => {
  await openEmptyLibrary(page);
  await agentWrites(page, `${STEM}.jsonl`, fixture('real/frinfo702-dotfiles-subagent-parent.jsonl').toString('utf8'));
  await agentWrites(page, `${STEM}/f0e4b9e7/run-0/session.jsonl`, fixture('real/frinfo702-dotfiles-subagent-run0.jsonl').toString('utf8'));
  await agentWrites(page, `${PROJECT}/2026-11-29T10-00-00-000Z_aaaa0001.jsonl`, makeSession('aaaa0001-0000-7000-8000-000000000001', 'Plain session'));
  await page.getByRole('button', { name: 'Link a folder' }).click();
  await expect(linked(page).getByRole('status')).toContainText('3 added', SYNC);
  // The child is listed under its parent, not beside it.
  await expect(card(page, 'Plain session')).toBeVisible();
  const parentCard = page.locator(`.session-card[data-session-id="${PARENT_ID}"]`);
  await expect(parentCard).toContainText('1 subagent');
  await expect(page.locator('.session-card')).toHaveCount(2);

  await parentCard.locator('a.session-title').click();
  // The reader opens at the end; the message that started the run is near the top.
  await page.locator('.vl').hover();
  await page.mouse.wheel(0, -100_000);
  const start = page.locator('.rd-row[data-entry="316b04ee"]');
  await start.getByRole('link', { name: /Subagent transcript: f0e4b9e7/ }).click();
  await expect(page).toHaveURL(/#\/s\/019e62c3-714a-75a0-a981-c1a6aeef0f10/);
  const back = page.getByRole('navigation', { name: 'Subagent of' });
  await expect(back).toContainText('Subagent transcript (f0e4b9e7) of');
  await back.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`#/s/${PARENT_ID}\\?entry=316b04ee`));
  await page.getByRole('tab', { name: 'Stats' }).click();
  await expect(page.getByRole('table', { name: /With subagents \(1 transcript\)/ })).toBeVisible();
});

for (const watcher of ['FileSystemObserver', 'polling'] as const)
  test(`follow live (${watcher}): a torn last line waits for its end; the open session grows, pinned it follows, scrolled up a pill counts`, async ({
    page,
  }) => {
    if (watcher === 'polling')
      await page.addInitScript(() => {
        delete (globalThis as { FileSystemObserver?: unknown }).FileSystemObserver;
      });
    const id = 'bbbb0002-0000-7000-8000-000000000002';
    const path = `${PROJECT}/2026-11-29T10-00-00-000Z_${id}.jsonl`;
    const { text, last } = longSession(id, 'Growing session', 30);
    await openEmptyLibrary(page);
    // Chromium 133+ has the observer: this run proves the observer path, the other the polling one.
    expect(await page.evaluate(() => typeof (globalThis as { FileSystemObserver?: unknown }).FileSystemObserver)).toBe(
      watcher === 'polling' ? 'undefined' : 'function',
    );
    await agentWrites(page, path, text);
    await page.getByRole('button', { name: 'Link a folder' }).click();
    await expect(linked(page).getByRole('status')).toContainText('1 added', SYNC);

    // The agent is half way through a line: nothing torn is reported, the line waits.
    const torn = userLine('bbbbn001', last, 'Live row one');
    await agentWrites(page, path, torn.slice(0, 50), 'append');
    await expect(linked(page)).toContainText('still being written', SYNC);
    await agentWrites(page, path, torn.slice(50), 'append');
    await expect(linked(page)).not.toContainText('still being written', SYNC);

    await card(page, 'Growing session').getByRole('link', { name: 'Growing session' }).click();
    await expect(page.getByText('Live row one')).toBeInViewport(SYNC);
    await expect(page.locator('.rd-problems')).toHaveCount(0);

    // Pinned to the bottom: a new row comes on screen by itself.
    await agentWrites(page, path, userLine('bbbbn002', 'bbbbn001', 'Live row two'), 'append');
    await expect(page.getByText('Live row two')).toBeInViewport(SYNC);

    // Scrolled up: the next rows are counted in a pill, which brings them on screen.
    const list = page.locator('.vl');
    await list.hover();
    await page.mouse.wheel(0, -100_000);
    await expect(page.getByText('Live row two')).not.toBeInViewport();
    await agentWrites(page, path, userLine('bbbbn003', 'bbbbn002', 'Live row three') + userLine('bbbbn004', 'bbbbn003', 'Live row four'), 'append');
    const pill = page.getByRole('button', { name: '2 new' });
    await expect(pill).toBeVisible(SYNC);
    await expect(page.getByText('Live row three')).not.toBeInViewport();
    await pill.click();
    await expect(page.getByText('Live row three')).toBeInViewport();
  });

test('a diverged file is kept as a variant, a vanished one stays, a longer library session is written back by appending', async ({ page }) => {
  const a = 'cccc0003-0000-7000-8000-000000000003';
  const b = 'dddd0004-0000-7000-8000-000000000004';
  const c = 'eeee0005-0000-7000-8000-000000000005';
  const pathOf = (id: string) => `${PROJECT}/2026-11-29T10-00-00-000Z_${id}.jsonl`;
  await openEmptyLibrary(page);
  await agentWrites(page, pathOf(a), makeSession(a, 'Diverging'));
  await agentWrites(page, pathOf(b), makeSession(b, 'Vanishing'));
  await agentWrites(page, pathOf(c), makeSession(c, 'Phone grown'));
  await page.getByRole('button', { name: 'Link a folder' }).click();
  await expect(linked(page).getByRole('status')).toContainText('3 added', SYNC);

  // The agent rewrote a's file with other entries; b's file went away.
  await agentWrites(page, pathOf(a), makeSession(a, 'Diverging').replace(`${a.slice(0, 6)}01`, 'ffffff01'));
  await agentDeletes(page, pathOf(b));
  await linked(page).getByRole('button', { name: 'Sync now' }).click();
  await expect(linked(page)).toContainText('1 variant kept', SYNC);
  await expect(linked(page)).toContainText('1 file no longer in the folder (kept in the library)');
  await expect(card(page, 'Vanishing')).toBeVisible();

  // c came back from the phone longer (dropped here as the extended file).
  const grown = makeSession(c, 'Phone grown') + userLine('eeeen001', `${c.slice(0, 6)}01`, 'Written on the phone');
  await dropFiles(page, [{ name: 'phone.jsonl', text: grown }]);
  await expect(page.getByRole('region', { name: 'Import' })).toContainText('Updated', SYNC);
  await linked(page).getByRole('button', { name: 'Sync now' }).click();
  await linked(page).getByRole('button', { name: 'Write back…' }).click();
  const confirm = linked(page).getByRole('dialog', { name: 'Write back to the folder' });
  await expect(confirm).toContainText(`Append 1 entry`);
  await expect(confirm.getByRole('listitem')).toHaveText(['user: Written on the phone']);
  await confirm.getByRole('button', { name: 'Write back' }).click();
  await expect(page.getByText(/Appended 1 entry to/)).toBeVisible(SYNC);
  expect(await folderText(page, pathOf(c))).toBe(grown);
});

test('where the browser cannot keep a folder linked, one sentence replaces the button', async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as unknown as { showDirectoryPicker?: unknown }).showDirectoryPicker;
  });
  await openEmptyLibrary(page);
  await expect(page.getByText('This browser cannot keep a folder linked')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Link a folder' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Import folder' }).first()).toBeVisible();
});

test('on launch a granted folder syncs without asking; a folder whose permission lapsed offers Reconnect', async ({ page }) => {
  const a = 'abab0006-0000-7000-8000-000000000006';
  const b = 'acac0007-0000-7000-8000-000000000007';
  await openEmptyLibrary(page);
  await agentWrites(page, `${PROJECT}/2026-11-29T10-00-00-000Z_${a}.jsonl`, makeSession(a, 'Before the reload'));
  await page.getByRole('button', { name: 'Link a folder' }).click();
  await expect(card(page, 'Before the reload')).toBeVisible(SYNC);
  // The agent writes while the app is closed; the next launch finds it with no click.
  await agentWrites(page, `${PROJECT}/2026-11-29T10-00-00-000Z_${b}.jsonl`, makeSession(b, 'While closed'));
  await page.reload();
  await expect(card(page, 'While closed')).toBeVisible(SYNC);
  // The card shows while the sync is still running; the folder's state (what the next sync compares
  // with) is saved when it ends. A reload before that makes the next sync read the file again.
  await expect(linked(page).getByRole('button', { name: 'Sync now' })).toBeVisible(SYNC);

  // An OPFS handle is always granted: the lapsed permission of a picked folder (the browser was
  // restarted) is played by queryPermission answering "prompt" until requestPermission is called.
  await page.addInitScript(() => {
    const proto = FileSystemHandle.prototype as unknown as { queryPermission(): Promise<string>; requestPermission(): Promise<string> };
    let granted = false;
    proto.queryPermission = async () => (granted ? 'granted' : 'prompt');
    proto.requestPermission = async () => {
      granted = true;
      return 'granted';
    };
  });
  await page.reload();
  const reconnect = linked(page).getByRole('button', { name: 'Reconnect' });
  await expect(reconnect).toBeVisible(SYNC);
  await reconnect.click();
  await expect(linked(page).getByRole('button', { name: 'Sync now' })).toBeVisible(SYNC);
  await expect(linked(page).getByRole('status')).toContainText('2 unchanged', SYNC);
});

test('a folder the browser refuses gets an explanation, not an error', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { showDirectoryPicker: () => Promise<never> }).showDirectoryPicker = async () => {
      throw new DOMException('The request is not allowed.', 'SecurityError');
    };
  });
  await openEmptyLibrary(page);
  await page.getByRole('button', { name: 'Link a folder' }).click();
  await expect(page.locator('.linked').getByRole('note')).toContainText('does not let web apps open that folder');
  await expect(page.locator('.linked').getByRole('note')).toContainText('~/.pi/agent/sessions');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('both sides wrote on: the agent file is kept as a variant, and the phone copy is written back beside it as a new file', async ({ page }) => {
  const c = 'afaf0008-0000-7000-8000-000000000008';
  const path = `${PROJECT}/2026-11-29T10-00-00-000Z_${c}.jsonl`;
  await openEmptyLibrary(page);
  await agentWrites(page, path, makeSession(c, 'Both wrote'));
  await page.getByRole('button', { name: 'Link a folder' }).click();
  await expect(linked(page).getByRole('status')).toContainText('1 added', SYNC);
  const phone = makeSession(c, 'Both wrote') + userLine('afafn001', `${c.slice(0, 6)}01`, 'Written on the phone, a longer line than the agent wrote');
  await dropFiles(page, [{ name: 'phone.jsonl', text: phone }]);
  await expect(page.getByRole('region', { name: 'Import' })).toContainText('Updated', SYNC);
  const agent = makeSession(c, 'Both wrote') + userLine('afafa001', `${c.slice(0, 6)}01`, 'Agent line');
  await agentWrites(page, path, agent);
  await expect(linked(page)).toContainText('1 variant kept', SYNC);
  await linked(page).getByRole('button', { name: 'Write back…' }).click();
  const confirm = linked(page).getByRole('dialog', { name: 'Write back to the folder' });
  await expect(confirm).toContainText('differs from the library');
  await expect(confirm.getByRole('listitem')).toHaveText(['user: Written on the phone, a longer line than the agent wrote']);
  await confirm.getByRole('button', { name: 'Write back' }).click();
  await expect(page.getByText(/beside the agent's file/)).toBeVisible(SYNC);
  const names = await page.evaluate(
    async ({ folder, project }) => {
      const dir = await (await (await navigator.storage.getDirectory()).getDirectoryHandle(folder)).getDirectoryHandle(project);
      const out: string[] = [];
      for await (const name of dir.keys()) out.push(name);
      return out.sort();
    },
    { folder: FOLDER, project: PROJECT },
  );
  expect(names).toHaveLength(2);
  const written = names.find((n) => n !== path.split('/')[1]) as string;
  expect(written).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-\\d{3}Z_${c}\\.jsonl$`));
  expect(await folderText(page, path)).toBe(agent);
  expect(await folderText(page, `${PROJECT}/${written}`)).toBe(phone);
});
