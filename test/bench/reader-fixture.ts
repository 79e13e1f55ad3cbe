/**
 * Sessions of an exact number of entries for the reader bench (fixtures/generated/reader-<N>.jsonl,
 * git-ignored): user questions, assistant turns with markdown, code and thinking, tool calls with
 * long outputs, about 2 KB an entry on average, so 30,000 entries come to about 60 MB.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
/** Where the generated sessions go. */
export const GENERATED = join(ROOT, 'fixtures/generated');

/** A small deterministic PRNG (mulberry32). */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the parser reads each line and keeps its bytes so export gives back exactly what came in while the tree walk stays iterative for very deep sessions with many branches and compactions'.split(
    ' ',
  );

/** The text of a session of `entries` entries (plus header), deterministic for a seed. */
export function readerSessionText(entries: number, seed = 1): string {
  const rand = prng(seed);
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  const lines: string[] = [
    JSON.stringify({
      type: 'session',
      version: 3,
      id: readerSessionId(entries),
      timestamp: '2026-11-01T00:00:00.000Z',
      cwd: '/home/bench/project',
      title: `Bench session of ${entries} entries`,
    }),
  ];
  let parent: string | null = null;
  let t = Date.UTC(2026, 10, 1);
  let call = 0;
  const push = (body: Record<string, unknown>) => {
    const id = lines.length.toString(16).padStart(8, '0');
    t += 1000;
    lines.push(JSON.stringify({ type: body.type, id, parentId: parent, timestamp: new Date(t).toISOString(), ...body }));
    parent = id;
  };
  const usage = () => ({
    input: 200,
    output: 150,
    cacheRead: 4000 + lines.length * 3,
    cacheWrite: 100,
    totalTokens: 4450 + lines.length * 3,
    cost: { input: 0.0006, output: 0.00225, cacheRead: 0.0012, cacheWrite: 0.0004, total: 0.00445 },
  });
  while (lines.length - 1 < entries) {
    const step = (lines.length - 1) % 4;
    if (step === 0) {
      push({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: `Question ${lines.length}: ${words(40)}?` }], timestamp: t } });
    } else if (step === 1) {
      const id = `call_${++call}`;
      push({
        type: 'message',
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: words(60) },
            { type: 'text', text: `Let me check **${words(3)}**.\n\n- ${words(12)}\n- ${words(12)}` },
            { type: 'toolCall', id, name: 'bash', arguments: { command: `grep -rn "${words(2)}" src/` } },
          ],
          api: 'anthropic-messages',
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          usage: usage(),
          stopReason: 'toolUse',
          timestamp: t,
        },
      });
    } else if (step === 2) {
      const out = Array.from({ length: 60 }, (_, i) => `src/file${i}.ts:${i + 1}: ${words(8)}`).join('\n');
      push({
        type: 'message',
        message: { role: 'toolResult', toolCallId: `call_${call}`, toolName: 'bash', content: [{ type: 'text', text: out }], isError: false, timestamp: t },
      });
    } else {
      push({
        type: 'message',
        message: {
          role: 'assistant',
          content: [
            {
              type: 'text',
              text: `Found it. ${words(50)}\n\n\`\`\`ts\nexport function ${WORDS[call % WORDS.length]}(input: string): number {\n  // ${words(8)}\n  return input.length * ${call};\n}\n\`\`\`\n\n${words(160)}`,
            },
          ],
          api: 'anthropic-messages',
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          usage: usage(),
          stopReason: 'stop',
          timestamp: t,
        },
      });
    }
  }
  return lines.join('\n') + '\n';
}

/** The session id of the generated session of `entries` entries. */
export function readerSessionId(entries: number): string {
  return `0193a5c2-0000-7000-8000-${String(entries).padStart(12, '0')}`;
}

/** Path of the generated session of `entries` entries; written on first use. */
export function ensureReaderSession(entries: number): string {
  const file = join(GENERATED, `reader-${entries}.jsonl`);
  if (existsSync(file)) return file;
  mkdirSync(GENERATED, { recursive: true });
  writeFileSync(file, readerSessionText(entries));
  return file;
}
