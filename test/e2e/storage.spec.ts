// The OPFS store in the built app's own worker, across two tabs and a reload. Each test drives
// workers started from the app's worker script (found through Playwright's page.workers()), each in
// its own OPFS folder (`?root=`), speaking the worker protocol (src/worker/protocol.ts) directly.
import { expect, test, type Page } from '@playwright/test';

// These tests start workers of their own from a page of the app, whose CSP requires Trusted Types
// for script URLs (only the app's own policy may sign them): the page's CSP is bypassed here; what
// the CSP refuses is tested in trusted-types.spec.ts.
test.use({ bypassCSP: true });

/** The URL of the built worker script the app started. */
async function appWorkerUrl(page: Page): Promise<string> {
  await page.goto('/');
  const existing = page.workers()[0];
  return (existing ?? (await page.waitForEvent('worker'))).url();
}

/** Starts a worker in the page (kept on window for later evaluates) and returns nothing. */
async function startWorker(page: Page, url: string, root: string): Promise<void> {
  await page.evaluate(
    ({ url, root }) => {
      const u = new URL(url);
      u.searchParams.set('root', root);
      const w = new Worker(u, { type: 'module' });
      let next = 1;
      const pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
      w.addEventListener('message', (e: MessageEvent) => {
        const m = e.data;
        const p = pending.get(m.id);
        if (!p || m.kind === 'progress') return;
        pending.delete(m.id);
        if (m.kind === 'result') p.resolve(m.value);
        else p.reject(new Error(`${m.error.code}: ${m.error.message}`));
      });
      const call = (method: string, params: unknown) =>
        new Promise((resolve, reject) => {
          const id = next++;
          pending.set(id, { resolve, reject });
          w.postMessage({ kind: 'call', id, method, params });
        });
      (window as unknown as { rhoTest: unknown }).rhoTest = { call, heard: [] as unknown[] };
      const channel = new BroadcastChannel('rho-sessions');
      channel.onmessage = (e) => (window as unknown as { rhoTest: { heard: unknown[] } }).rhoTest.heard.push(e.data);
    },
    { url, root },
  );
}

type Call = (method: string, params: unknown) => Promise<unknown>;
declare global {
  interface Window {
    rhoTest: { call: Call; heard: unknown[] };
  }
}

function sessionText(id: string, turns: number): string {
  const lines = [JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-01-02T03:04:05.678Z', cwd: '/home/u/proj' })];
  let parent: string | null = null;
  for (let i = 0; i < turns; i++) {
    const u = `u${i.toString(16).padStart(7, '0')}`;
    lines.push(
      JSON.stringify({ type: 'message', id: u, parentId: parent, timestamp: 't', message: { role: 'user', content: `question ${i} ✓`, timestamp: 1 } }),
    );
    parent = u;
  }
  return lines.join('\n') + '\n';
}

test('two tabs write the same session at once: one writer at a time, nothing lost, the other tab hears it', async ({ context }) => {
  const root = `e2e-locks-${Date.now()}`;
  const a = await context.newPage();
  const url = await appWorkerUrl(a);
  const b = await context.newPage();
  await b.goto('/');
  await startWorker(a, url, root);
  await startWorker(b, url, root);
  const text = sessionText('shared', 8);
  await a.evaluate((text) => window.rhoTest.call('importFiles', { files: [new File([text], 's.jsonl')] }), text);
  const label = (page: Page, tag: string) =>
    page.evaluate(
      (tag) =>
        Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            window.rhoTest.call('labelEntry', { id: 'shared', entryId: `u${i.toString(16).padStart(7, '0')}`, label: `${tag}${i}` }),
          ),
        ),
      tag,
    );
  await Promise.all([label(a, 'a'), label(b, 'b')]);
  const exported = await b.evaluate(async () => {
    const r = (await window.rhoTest.call('exportSession', { id: 'shared' })) as { blob: Blob };
    return r.blob.text();
  });
  const lines = exported
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  const labels = lines.filter((l) => l.type === 'label');
  expect(labels.map((l) => l.label).sort()).toEqual([...Array.from({ length: 8 }, (_, i) => `a${i}`), ...Array.from({ length: 8 }, (_, i) => `b${i}`)].sort());
  // Each label was appended after the real leaf: one chain, no two entries with the same parent.
  const parents = labels.map((l) => l.parentId);
  expect(new Set(parents).size).toBe(parents.length);
  expect(exported.startsWith(text)).toBe(true);
  // Tab b heard tab a's import (and its own writes) on the BroadcastChannel.
  const heard = await b.evaluate(() => window.rhoTest.heard);
  expect(heard).toContainEqual({ type: 'changed', ids: ['shared'] });
});

test('imported sessions survive a reload, and export gives back the imported bytes', async ({ page }) => {
  const root = `e2e-reload-${Date.now()}`;
  const url = await appWorkerUrl(page);
  await startWorker(page, url, root);
  const text = sessionText('kept', 30) + '{"type":"custom","id":"c","parentId":"u000001d","timestamp":"t","customType":"x","data":"\u2028"}';
  const report = await page.evaluate((text) => window.rhoTest.call('importFiles', { files: [new File([text], 'k.jsonl')] }), text);
  expect(report).toEqual({ items: [{ name: 'k.jsonl', outcome: 'added', id: 'kept', problems: 0 }] });
  await page.reload();
  await startWorker(page, url, root);
  const listed = (await page.evaluate(() => window.rhoTest.call('listSessions', {}))) as Array<{ id: string; entryCount: number }>;
  expect(listed.map((s) => [s.id, s.entryCount])).toEqual([['kept', 31]]);
  const bytes = await page.evaluate(async () => {
    const r = (await window.rhoTest.call('exportSession', { id: 'kept' })) as { blob: Blob };
    return Array.from(new Uint8Array(await r.blob.arrayBuffer()));
  });
  expect(bytes).toEqual(Array.from(new TextEncoder().encode(text)));
  expect(await page.evaluate(() => window.rhoTest.call('storageInfo', {}))).toMatchObject({ opfs: true });
});
