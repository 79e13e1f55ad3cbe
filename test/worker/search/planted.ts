// A generated library with planted words: small sessions whose every kind of entry (user text,
// assistant text, thinking, a tool call's path argument, a tool's output, a shell command, a notice,
// a compaction summary) holds a word of its own, beside generated sessions (test/gen) as noise.
import { createMemoryDisk } from '../../../src/storage/memory-disk.ts';
import { createStore } from '../../../src/storage/store.ts';
import { createApi } from '../../../src/worker/api.ts';
import { createRng } from '../../gen/prng.ts';
import { generateSessionText } from '../../gen/session.ts';

/** Where a planted word is: the session and the entry. */
export interface Plant {
  word: string;
  session: string;
  entry: string;
  place: string;
}

/** A word no session has by chance: ten letters from a seeded generator (pairwise far apart). */
export function plantWords(seed: number, n: number): string[] {
  const rng = createRng(seed);
  const out: string[] = [];
  while (out.length < n) {
    let w = '';
    for (let i = 0; i < 10; i++) w += String.fromCharCode(97 + rng.int(0, 25));
    out.push(w);
  }
  return out;
}

const T = (i: number, s: number) => new Date(Date.UTC(2026, 1, 1 + i, 10, 0, s)).toISOString();

/** One session with a planted word in each kind of entry; returns its text and where each word is. */
export function plantedSession(id: string, i: number, ws: string[]): { text: string; plants: Plant[] } {
  const [user, assistant, thought, path, output, cmd, notice, summary] = ws;
  const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.01 } };
  const lines = [
    { type: 'session', version: 3, id, timestamp: T(i, 0), cwd: `/home/dev/project${i}` },
    { type: 'message', id: 'u1', parentId: null, timestamp: T(i, 1), message: { role: 'user', content: `Please look at ${user} today`, timestamp: 1 } },
    {
      type: 'message',
      id: 'a1',
      parentId: 'u1',
      timestamp: T(i, 2),
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: `I think ${thought} matters`, thinkingSignature: 'sig' },
          { type: 'text', text: `Sure, ${assistant} it is` },
          { type: 'toolCall', id: 'call1', name: 'read', arguments: { path: `src/${path}/main.ts` } },
        ],
        api: 'anthropic-messages',
        provider: 'anthropic',
        model: i % 2 ? 'claude-sonnet-4-5' : 'gpt-5',
        usage,
        stopReason: 'toolUse',
        timestamp: 2,
      },
    },
    {
      type: 'message',
      id: 't1',
      parentId: 'a1',
      timestamp: T(i, 3),
      message: {
        role: 'toolResult',
        toolCallId: 'call1',
        toolName: 'read',
        content: [{ type: 'text', text: `export const x = "${output}";` }],
        isError: i % 2 === 1,
        timestamp: 3,
      },
    },
    {
      type: 'message',
      id: 'b1',
      parentId: 't1',
      timestamp: T(i, 4),
      message: { role: 'bashExecution', command: `grep -r ${cmd} src`, output: 'nothing', exitCode: 0, cancelled: false, truncated: false, timestamp: 4 },
    },
    { type: 'custom_message', id: 'n1', parentId: 'b1', timestamp: T(i, 5), customType: 'rho.notice', content: `Heads up: ${notice}`, display: true },
    { type: 'compaction', id: 'c1', parentId: 'n1', timestamp: T(i, 6), summary: `We worked on ${summary} so far`, firstKeptEntryId: 'u1', tokensBefore: 100 },
  ];
  const places: Array<[string, string, string]> = [
    [user, 'u1', 'user text'],
    [assistant, 'a1', 'assistant text'],
    [thought, 'a1', 'thinking'],
    [path, 'a1', 'tool argument'],
    [output, 't1', 'tool output'],
    [cmd, 'b1', 'shell command'],
    [notice, 'n1', 'notice'],
    [summary, 'c1', 'compaction summary'],
  ];
  return { text: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', plants: places.map(([word, entry, place]) => ({ word, session: id, entry, place })) };
}

/** Generated sessions (none of them holds a planted word: their vocabulary is fixed). */
export function noiseSessions(n: number, kb = 40): Array<{ name: string; text: string }> {
  return Array.from({ length: n }, (_, i) => ({
    name: `noise-${i}.jsonl`,
    text: generateSessionText({ seed: 500 + i, targetBytes: kb * 1024, flavor: i % 2 ? 'omp' : 'pi' }),
  }));
}

/**
 * A library on a memory disk (sessions and search index), through the worker API. Several workers
 * may share a disk, and an earlier one lingers (a closed tab's would not): its open segments would
 * hold up a later one's removals until they close, so they close soon after a query.
 */
export function openLibrary(disk = createMemoryDisk()) {
  const store = createStore(disk, { flushDelay: 0 });
  let n = 0;
  const api = createApi({
    store,
    now: () => new Date('2026-03-04T05:06:07.000Z'),
    randomId: () => (++n).toString(16).padStart(8, '0'),
    searchDisk: disk,
    searchReaderIdleMs: 20,
  });
  return { disk, store, api };
}
