/**
 * MiniSearch or FlexSearch for the library's search index: both measured on our data.
 * Generated sessions (test/gen, the bench's kind) are cut into the documents the index keeps
 * (src/worker/search/extract.ts); each library indexes the same documents, and answers the same
 * typed-as-you-go queries. Prints index time, serialized size against the sessions' bytes, heap,
 * and query time, and whether each query's answers agree with a plain scan of the documents.
 *
 *   node --expose-gc --import tsx test/bench/search-libs.ts [sessions=40] [kbPerSession=500] [session|entries]
 */
import { Index } from 'flexsearch';
import MiniSearch from 'minisearch';
import { createExtractor, type EntryDoc } from '../../src/worker/search/extract.ts';
import { words } from '../../src/worker/search/tokens.ts';
import { generateSessionText } from '../gen/session.ts';

const sessions = Number(process.argv[2] ?? 40);
const kb = Number(process.argv[3] ?? 500);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

let bytes = 0;
const docs: Array<EntryDoc & { n: number }> = [];
for (let i = 0; i < sessions; i++) {
  const text = generateSessionText({ seed: 100 + i, targetBytes: kb * 1024, flavor: i % 3 === 0 ? 'omp' : 'pi' });
  bytes += Buffer.byteLength(text);
  const x = createExtractor(`s${i}`, '');
  for (const line of text.split('\n')) if (line) x.line(line);
  for (const d of x.finish(0).docs) docs.push({ ...d, n: docs.length, s: `s${i}` } as EntryDoc & { n: number });
}
// The design kept: one document per session (its distinct words); entries are found in the chosen
// sessions' own documents afterwards. `entries` indexes every entry instead, for comparison.
const level = process.argv[4] ?? 'session';
if (level === 'session') {
  const bySession = new Map<string, Set<string>>();
  for (const d of docs) {
    const key = String((d as { s?: string }).s);
    if (!bySession.has(key)) bySession.set(key, new Set());
    for (const w of words(d.text)) bySession.get(key)!.add(w);
  }
  docs.length = 0;
  for (const set of bySession.values()) docs.push({ id: '', kind: 'user', ts: 0, flags: 0, text: [...set].join(' '), n: docs.length });
}
const textBytes = docs.reduce((n, d) => n + d.text.length, 0);
console.log(`${sessions} sessions, ${(bytes / 1048576).toFixed(1)} MB; ${docs.length} documents, ${(textBytes / 1048576).toFixed(1)} MB of text`);

// Queries as typed: each prefix of a phrase, the last word a prefix; one with a typo.
const typed = (s: string) => Array.from({ length: s.length - 1 }, (_, i) => s.slice(0, i + 2)).filter((q) => !q.endsWith(' '));
const queries = [...typed('compaction summary'), ...typed('parseLine buffer'), 'compaktion', 'sesion store'];
const truth = (q: string) => {
  const ws = words(q);
  return docs.filter((d) => {
    const dw = words(d.text);
    return ws.every((w, i) => dw.some((x) => (i === ws.length - 1 ? x.startsWith(w) : x === w)));
  }).length;
};

function time(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}
const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

// MiniSearch: every word must match, the last one as a prefix, up to two typos in long words.
{
  const h0 = heap();
  const ms = new MiniSearch<EntryDoc & { n: number }>({ idField: 'n', fields: ['text'], tokenize: (s) => words(s), processTerm: (t) => t });
  const build = time(() => ms.addAll(docs));
  const h1 = heap();
  const json = JSON.stringify(ms);
  const load = time(() => MiniSearch.loadJSON(json, { idField: 'n', fields: ['text'] }));
  const qt: number[] = [];
  const agree: string[] = [];
  for (const q of queries) {
    let n = 0;
    qt.push(
      time(() => {
        n = ms.search(q, {
          combineWith: 'AND',
          prefix: (_t, i, all) => i === all.length - 1,
          fuzzy: (t) => (t.length < 5 ? 0 : t.length <= 8 ? 1 : 2),
        }).length;
      }),
    );
    if (!q.includes('kt') && !q.includes('sesion') && n !== truth(q)) agree.push(`${q}: ${n} vs ${truth(q)}`);
  }
  console.log(
    `MiniSearch 7.2.0: index ${build.toFixed(0)} ms, JSON ${(json.length / 1048576).toFixed(1)} MB (${((100 * json.length) / bytes).toFixed(1)} % of the sessions), load ${load.toFixed(0)} ms, heap +${((h1 - h0) / 1048576).toFixed(0)} MB; query p50 ${p(qt, 0.5).toFixed(1)} ms, p95 ${p(qt, 0.95).toFixed(1)} ms; typo "compaktion" finds ${ms.search('compaktion', { fuzzy: 1 }).length}; ${agree.length ? `DISAGREES (fuzzy adds near words): ${agree.slice(0, 3).join('; ')}` : 'agrees with the scan'}`,
  );
}

// FlexSearch: forward tokenizer (prefixes), its default encoder; no edit-distance typos (suggest only relaxes AND).
{
  const h0 = heap();
  const fx = new Index({ tokenize: 'forward', encoder: { normalize: true, dedupe: false } as never });
  const build = time(() => {
    for (const d of docs) fx.add(d.n, d.text);
  });
  const h1 = heap();
  let size = 0;
  fx.export((_k: string, data: string) => {
    size += data?.length ?? 0;
  });
  const qt: number[] = [];
  const agree: string[] = [];
  for (const q of queries) {
    let n = 0;
    qt.push(
      time(() => {
        n = (fx.search(q, { limit: docs.length }) as unknown[]).length;
      }),
    );
    if (!q.includes('kt') && !q.includes('sesion') && n !== truth(q)) agree.push(`${q}: ${n} vs ${truth(q)}`);
  }
  const typo = (fx.search('compaktion', { limit: docs.length, suggest: true }) as unknown[]).length;
  console.log(
    `FlexSearch 0.8.212: index ${build.toFixed(0)} ms, export ${(size / 1048576).toFixed(1)} MB (${((100 * size) / bytes).toFixed(1)} % of the sessions), heap +${((h1 - h0) / 1048576).toFixed(0)} MB; query p50 ${p(qt, 0.5).toFixed(1)} ms, p95 ${p(qt, 0.95).toFixed(1)} ms; typo "compaktion" finds ${typo}; ${agree.length ? `DISAGREES: ${agree.slice(0, 3).join('; ')}` : 'agrees with the scan'}`,
  );
}
