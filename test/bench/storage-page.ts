// The in-page half of storage.bench.ts (served by vite to the benchmark page): generates inputs,
// runs the raw sync-handle baseline in its own worker, and times the real worker's API.
import { connectWorker } from '../../src/worker/client.ts';

/** Everything that runs in the page: generation, the baseline worker, the timed calls. */
export async function pageBench(args: { sizeMb: number; runs: number; folder: number; listCount: number }) {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const opfs = await navigator.storage.getDirectory();
  const removeRoot = (name: string) => opfs.removeEntry(name, { recursive: true }).catch(() => undefined);
  let rootCounter = 0;
  const freshRoot = () => `bench-${Date.now()}-${++rootCounter}`;

  const startApi = async (rootName: string, query = '') => {
    const w = new Worker(`/src/worker/main.ts?root=${rootName}${query}`, { type: 'module' });
    const api = connectWorker(w);
    await api.ping({ message: 'ready' });
    return { w, api };
  };

  const { baseline, writeRaw } = rawWriter();
  const { makeSession, rand } = sessionGenerator();

  // Times the import (as the app runs it: the search index made on the way), the import of a worker
  // that leaves indexing for later (`?index=later`: the import's bytes and records
  // alone), and the raw write, in rotation, each in a fresh OPFS folder.
  const compare = async (files: File[]) => {
    const times: Record<'raw' | 'import' | 'later', number[]> = { raw: [], import: [], later: [] };
    const order = ['raw', 'import', 'later'] as const;
    // No warm-up round: each round is seconds of I/O, and the order rotates between rounds.
    for (let r = 0; r < args.runs; r++) {
      for (let k = 0; k < order.length; k++) {
        const which = order[(k + r) % order.length];
        const rootName = freshRoot();
        if (which === 'raw') {
          const t0 = performance.now();
          await writeRaw(files, rootName);
          times.raw.push(performance.now() - t0);
        } else {
          const { w, api } = await startApi(rootName, which === 'later' ? '&index=later' : '');
          const t0 = performance.now();
          const report = await api.importFiles({ files });
          const t = performance.now() - t0;
          if (report.items.some((i: { outcome: string }) => i.outcome !== 'added')) throw new Error('bench import did not add everything');
          times[which].push(t);
          w.terminate();
        }
        await removeRoot(rootName);
      }
    }
    return { imp: median(times.import), later: median(times.later), raw: median(times.raw) };
  };

  const out: Record<string, number> = {};
  const big = new File([makeSession('big-session', args.sizeMb * 1024 * 1024)], 'big.jsonl');
  out.bigBytes = big.size;
  const bigResult = await compare([big]);
  out.bigImport = bigResult.imp;
  out.bigLater = bigResult.later;
  out.bigRaw = bigResult.raw;

  const folder: File[] = [];
  for (let i = 0; i < args.folder; i++) folder.push(new File([makeSession(`folder-${i}`, 5_000 + Math.floor(rand() * 95_000))], `s${i}.jsonl`));
  out.folderBytes = folder.reduce((n, f) => n + f.size, 0);
  const folderResult = await compare(folder);
  out.folderImport = folderResult.imp;
  out.folderLater = folderResult.later;
  out.folderRaw = folderResult.raw;

  if (!args.listCount) {
    baseline.terminate();
    return out;
  }
  // Listing: 2,000 sessions imported once, then listed from the index.
  const listRoot = freshRoot();
  const many: File[] = [];
  for (let i = 0; i < args.listCount; i++) many.push(new File([makeSession(`list-${i}`, 2_000)], `l${i}.jsonl`));
  let { w, api } = await startApi(listRoot);
  const t0 = performance.now();
  await api.importFiles({ files: many });
  out.listImportAll = performance.now() - t0;
  const cold: number[] = [];
  const warm: number[] = [];
  const readIndex: number[] = [];
  for (let r = 0; r < Math.max(5, args.runs); r++) {
    w.terminate();
    ({ w, api } = await startApi(listRoot));
    const c0 = performance.now();
    const listed = await api.listSessions({});
    cold.push(performance.now() - c0);
    if (listed.length !== args.listCount) throw new Error(`listed ${listed.length}, expected ${args.listCount}`);
  }
  for (let r = 0; r < 21; r++) {
    const t = performance.now();
    await api.listSessions({});
    warm.push(performance.now() - t);
  }
  const dir = await opfs.getDirectoryHandle(listRoot);
  for (let r = 0; r < 21; r++) {
    const t = performance.now();
    const bytes = await (await (await dir.getFileHandle('index.json')).getFile()).arrayBuffer();
    readIndex.push(performance.now() - t);
    out.indexBytes = bytes.byteLength;
  }
  w.terminate();
  // Per-file cost against the library's size: the same folder (new ids each round) imported into an
  // empty library and into the library of 2,000 (and more each round), in alternating order.
  const into: Record<'empty' | 'library', number[]> = { empty: [], library: [] };
  for (let r = 0; r < args.runs; r++) {
    const copy = folder.map((f, i) => new File([makeSession(`grown-${r}-${i}`, f.size)], f.name));
    for (const which of r % 2 ? (['library', 'empty'] as const) : (['empty', 'library'] as const)) {
      const rootName = which === 'empty' ? freshRoot() : listRoot;
      const started = await startApi(rootName);
      const t = performance.now();
      const report = await started.api.importFiles({ files: copy });
      into[which].push(performance.now() - t);
      if (report.items.some((i: { outcome: string }) => i.outcome !== 'added')) throw new Error('bench import did not add everything');
      started.w.terminate();
      if (which === 'empty') await removeRoot(rootName);
    }
  }
  out.intoEmpty = median(into.empty);
  out.intoLibrary = median(into.library);
  baseline.terminate();
  await removeRoot(listRoot);
  out.listCold = median(cold);
  out.listWarm = median(warm);
  out.readIndex = median(readIndex);
  return out;
}

/** Session text of about `bytes` bytes: user turns, assistant turns with usage, tool results of 1–20 KB (seeded, so every run makes the same). */
export function sessionGenerator() {
  let seed = 1;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const makeSession = (id: string, bytes: number) => {
    const lines = [JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-01-01T00:00:00.000Z', cwd: '/home/u/proj' })];
    let size = lines[0].length + 1;
    let parent: string | null = null;
    let n = 0;
    const word = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor ';
    while (size < bytes) {
      const id8 = (++n).toString(16).padStart(8, '0');
      const kind = n % 3;
      const message =
        kind === 0
          ? { role: 'user', content: word.repeat(3), timestamp: n }
          : kind === 1
            ? {
                role: 'assistant',
                content: [
                  { type: 'text', text: word.repeat(5) },
                  { type: 'toolCall', id: 'c' + n, name: 'read', arguments: { path: '/x' } },
                ],
                api: 'anthropic-messages',
                provider: 'anthropic',
                model: 'claude-sonnet-4-5',
                usage: {
                  input: 100,
                  output: 50,
                  cacheRead: 0,
                  cacheWrite: 0,
                  totalTokens: 150,
                  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 },
                },
                stopReason: 'toolUse',
                timestamp: n,
              }
            : {
                role: 'toolResult',
                toolCallId: 'c' + (n - 1),
                toolName: 'read',
                content: [{ type: 'text', text: word.repeat(Math.floor(12 + rand() * 250)) }],
                isError: false,
                timestamp: n,
              };
      const line = JSON.stringify({ type: 'message', id: id8, parentId: parent, timestamp: '2026-01-01T00:00:00.000Z', message });
      lines.push(line);
      size += line.length + 1;
      parent = id8;
    }
    return lines.join('\n') + '\n';
  };
  return { makeSession, rand };
}

/** The baseline: the same File bytes, read in the same 4 MiB chunks, written with sync handles (in its own worker). */
export function rawWriter() {
  const baselineSource = `
    self.onmessage = async (e) => {
      const { files, root } = e.data;
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(root, { create: true });
      for (let i = 0; i < files.length; i++) {
        const f = files[i];
        const h = await dir.getFileHandle('f' + i, { create: true });
        const a = await h.createSyncAccessHandle();
        let at = 0;
        for (let off = 0; off < f.size; off += 4194304) {
          const buf = new Uint8Array(await f.slice(off, off + 4194304).arrayBuffer());
          a.write(buf, { at }); at += buf.length;
        }
        a.flush(); a.close();
      }
      postMessage('done');
    };`;
  const baseline = new Worker(URL.createObjectURL(new Blob([baselineSource], { type: 'text/javascript' })));
  const writeRaw = (files: File[], rootName: string) =>
    new Promise<void>((res) => {
      baseline.onmessage = () => res();
      baseline.postMessage({ files, root: rootName });
    });
  return { baseline, writeRaw };
}
