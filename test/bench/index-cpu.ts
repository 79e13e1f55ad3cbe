/**
 * A diagnostic, not a bench: the search index's share of an import's CPU, in Node, in-process. Generates
 * sessions as the search bench does (test/gen), parses their lines once (as the import's scan does), then
 * times, by process CPU, the extraction (`createExtractor().value`) and `buildPart` over them.
 *
 *   npx tsx test/bench/index-cpu.ts [sessions=150] [totalMb=30] [rounds=3]
 *   Add `--cpu-prof` to node (NODE_OPTIONS) for a profile of the rounds.
 */
import { generateSessionText } from '../gen/session.ts';
import { createExtractor } from '../../src/worker/search/extract.ts';
import MiniSearch from 'minisearch';
import { buildPart } from '../../src/worker/search/part.ts';
import { words } from '../../src/worker/search/tokens.ts';

const sessions = Number(process.argv[2] ?? 150);
const totalMb = Number(process.argv[3] ?? 30);
const rounds = Number(process.argv[4] ?? 3);
const per = Math.floor((totalMb * 1024 * 1024) / sessions);
const parsed: Array<Array<Record<string, unknown>>> = [];
let bytes = 0;
let parseMs = 0;
for (let i = 0; i < sessions; i++) {
  const text = generateSessionText({ seed: 1000 + i, targetBytes: per, flavor: i % 3 === 2 ? 'omp' : 'pi', startMs: Date.UTC(2025, 0, 1) + i * 3600_000 });
  bytes += text.length;
  const c0 = process.cpuUsage();
  parsed.push(
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  );
  const c1 = process.cpuUsage(c0);
  parseMs += (c1.user + c1.system) / 1000;
}
const cpu = (f: () => void) => {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
console.log(`${sessions} sessions, ${(bytes / 1048576).toFixed(1)} MB (chars); JSON.parse ${parseMs.toFixed(0)} ms CPU`);
const best = { extract: Infinity, build: Infinity, mini: Infinity, total: Infinity };
for (let r = 0; r < rounds; r++) {
  let extractMs = 0;
  let buildMs = 0;
  let miniMs = 0;
  let out = 0;
  // As library-index.ts makes its MiniSearch (one document per session: its distinct words).
  const ms = new MiniSearch<{ id: string; title: string; cwd: string; words: string }>({
    fields: ['title', 'cwd', 'words'],
    tokenize: (text, field) => (field === 'words' ? text.split(' ') : words(text)),
    processTerm: (t) => t || null,
  });
  for (let i = 0; i < sessions; i++) {
    let docs: ReturnType<ReturnType<typeof createExtractor>['finish']>['docs'] = [];
    extractMs += cpu(() => {
      const x = createExtractor(`s${i}`, '');
      for (const v of parsed[i]) x.value(v);
      docs = x.finish(1).docs;
    });
    let part = buildPart([]);
    buildMs += cpu(() => {
      part = buildPart(docs);
    });
    out += part.words.length + part.facts.length + part.texts.length;
    miniMs += cpu(() => ms.add({ id: `s${i}`, title: 'a title', cwd: '/home/u/project', words: part.words }));
  }
  const total = extractMs + buildMs + miniMs;
  best.extract = Math.min(best.extract, extractMs);
  best.build = Math.min(best.build, buildMs);
  best.mini = Math.min(best.mini, miniMs);
  best.total = Math.min(best.total, total);
  console.log(
    `round ${r + 1}: extract ${extractMs.toFixed(0)} ms, buildPart ${buildMs.toFixed(0)} ms, MiniSearch add ${miniMs.toFixed(0)} ms; total ${total.toFixed(0)} ms CPU (${(out / 1048576).toFixed(1)} MB out)`,
  );
}
console.log(
  `best of ${rounds}: extract ${best.extract.toFixed(0)} ms, buildPart ${best.build.toFixed(0)} ms, MiniSearch add ${best.mini.toFixed(0)} ms; total ${best.total.toFixed(0)} ms CPU`,
);
