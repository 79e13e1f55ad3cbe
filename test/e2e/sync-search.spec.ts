// Search over sessions that arrived by sync, in real Chromium: two browser contexts are two devices
// paired through a real S3 server (s3rver) on loopback. The device that receives a session finds it
// by a word in it, then by a word appended on the other device, also after a file of its own was
// imported meanwhile (an import writes what the search index gathered). Waits are for events.
import { expect, type Page, test } from '@playwright/test';
import { dropFiles } from './app-helpers.ts';
import { type S3Server, S3_KEY, S3_SECRET, startS3 } from '../sync/servers.ts';
import { port } from './playwright.config.ts';
import { type Device, joinByLink, libraryTexts, newDevice, sessionOf, setUpS3 } from './sync-helpers.ts';

const SLOW = { timeout: 60_000 };
const ID = '019e0000-5a5a-7000-8000-00000000c001';
const devices: Device[] = [];
let s3: S3Server;

test.beforeAll(async () => {
  s3 = await startS3({ origins: [`http://localhost:${port}`] });
});

test.afterAll(async () => {
  for (const d of devices) await d.context.close();
  await s3?.stop();
});

/** Types `word` in the library's search box; the titles of the sessions it finds, once it answers. */
async function found(page: Page, word: string): Promise<string[]> {
  const box = page.getByLabel('Search sessions');
  await box.fill(word);
  const results = page.getByRole('region', { name: 'Search results' });
  await expect(results.getByRole('status')).toContainText(`found for “${word}”`, SLOW);
  return results.locator('.search-session .session-title').allTextContents();
}

test('a session received by sync is found by its words, and by a word appended on the other device', async ({ browser }) => {
  test.setTimeout(240_000);
  const a = await newDevice(browser, '/#/sync');
  devices.push(a);
  await setUpS3(a.page, { endpoint: s3.endpoint, bucket: s3.bucket, prefix: 'search/', key: S3_KEY, secret: S3_SECRET, name: 'laptop' });
  await a.page.getByRole('button', { name: 'Create the space' }).click();
  await expect(a.page.getByTestId('sync-state')).toContainText('Last sync', SLOW);
  const b = await joinByLink(browser, a.page, 'phone');
  devices.push(b);

  const one = sessionOf(ID, 'Rigging notes', ['check the marlinspike before sailing']);
  await a.page.goto('/#/');
  await b.page.goto('/#/');
  await dropFiles(a.page, [{ name: 'rigging.jsonl', text: one }]);
  await expect.poll(() => libraryTexts(b.page), SLOW).toEqual([one]);
  await expect.poll(() => found(b.page, 'marlinspike'), SLOW).toEqual(['Rigging notes']);

  const two = sessionOf(ID, 'Rigging notes', ['check the marlinspike before sailing', 'the gunwale needs varnish']);
  await dropFiles(a.page, [{ name: 'rigging.jsonl', text: two }]);
  await expect.poll(() => libraryTexts(b.page), SLOW).toEqual([two]);
  await expect.poll(() => found(b.page, 'gunwale'), SLOW).toEqual(['Rigging notes']);

  // A file of the receiving device's own, imported there: the index then holds both, each found by its words.
  const own = sessionOf('019e0000-5a5a-7000-8000-00000000c002', 'Galley list', ['buy more ship biscuits']);
  await dropFiles(b.page, [{ name: 'galley.jsonl', text: own }]);
  await expect.poll(() => found(b.page, 'biscuits'), SLOW).toEqual(['Galley list']);
  await expect.poll(() => found(b.page, 'gunwale'), SLOW).toEqual(['Rigging notes']);
  await expect.poll(() => found(b.page, 'marlinspike'), SLOW).toEqual(['Rigging notes']);
});
