// Drives the real worker (src/worker/main.ts) in Chromium through the page's client, each test in
// its own OPFS folder so tests do not see each other's files.
import { connectWorker } from '../../src/worker/client.ts';

let counter = 0;

/** A fresh OPFS folder name for one test. */
export function freshRoot(): string {
  return `test-${Date.now()}-${++counter}-${Math.random().toString(16).slice(2, 8)}`;
}

/** Starts a worker whose store lives in OPFS folder `root`. */
export function startWorker(root: string) {
  const url = new URL('../../src/worker/main.ts', import.meta.url);
  url.searchParams.set('root', root);
  const worker = new Worker(url, { type: 'module' });
  return { worker, api: connectWorker(worker), stop: () => worker.terminate() };
}

/** The OPFS folder of a test, opened from the page (tests only: the app never touches OPFS from the page). */
export async function rootDir(root: string): Promise<FileSystemDirectoryHandle> {
  return (await navigator.storage.getDirectory()).getDirectoryHandle(root, { create: true });
}

/** Removes a test's OPFS folder. */
export async function removeRoot(root: string): Promise<void> {
  await (await navigator.storage.getDirectory()).removeEntry(root, { recursive: true }).catch(() => undefined);
}

/** Names of the files in a folder of a test's OPFS root. */
export async function namesIn(root: string, dir: string): Promise<string[]> {
  const d = await (await rootDir(root)).getDirectoryHandle(dir, { create: true });
  const names: string[] = [];
  for await (const name of (d as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(name);
  return names.sort();
}

/** A session file's text: a header and `turns` user/assistant pairs. */
export function sessionText(id: string, turns = 2, prefix = 'e'): string {
  const lines = [JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-01-02T03:04:05.678Z', cwd: '/home/u/proj' })];
  let parent: string | null = null;
  for (let i = 0; i < turns; i++) {
    const u = `${prefix}${(2 * i).toString(16).padStart(7, '0')}`;
    const a = `${prefix}${(2 * i + 1).toString(16).padStart(7, '0')}`;
    lines.push(JSON.stringify({ type: 'message', id: u, parentId: parent, timestamp: 't', message: { role: 'user', content: `question ${i}`, timestamp: 1 } }));
    lines.push(
      JSON.stringify({
        type: 'message',
        id: a,
        parentId: u,
        timestamp: 't',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: `answer ${i}` }],
          api: 'anthropic-messages',
          provider: 'anthropic',
          model: 'claude',
          usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.5 } },
          stopReason: 'stop',
          timestamp: 2,
        },
      }),
    );
    parent = a;
  }
  return lines.join('\n') + '\n';
}

/** The bytes of a Blob as text. */
export async function textOf(blob: Blob): Promise<string> {
  return new TextDecoder().decode(new Uint8Array(await blob.arrayBuffer()));
}
