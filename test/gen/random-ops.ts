/**
 * Random operation lists for pi's SessionManager (see pi-ops.ts), from a seed: appends of every
 * message kind, branches, branch summaries, compactions (with the kept entry on or off the branch),
 * tool calls answered, unanswered and answered late, aborts, errors, empty and thinking-only turns,
 * retryRecovery turns, images in user / tool / custom / assistant content.
 */
import type { PartSpec, PiOp } from './pi-ops.ts';
import type { Rng } from './prng.ts';
import { base64Bytes, code, paragraph, sentence } from './text.ts';

/** Knobs for `randomPiOps`. */
export interface RandomOpsOptions {
  /** Decoded bytes of each image (default 24…600, small so tests stay fast). */
  imageBytes?: [number, number];
  /** Include assistant image parts (an omp/Rho extension; pi passes them through). Default true. */
  assistantImages?: boolean;
  /** Include user attachments (Rho's field). Default true. */
  attachments?: boolean;
  /** Include thinking parts with empty text and no signature. Default true. */
  emptyThinking?: boolean;
}

/** `count` random ops from `rng`. */
export function randomPiOps(rng: Rng, count: number, opts: RandomOpsOptions = {}): PiOp[] {
  const [lo, hi] = opts.imageBytes ?? [24, 600];
  const img = () => ({ data: base64Bytes(rng, rng.int(lo, hi)), mimeType: rng.pick(['image/png', 'image/jpeg']) });
  const text = () => (rng.chance(0.2) ? paragraph(rng) + '\n```ts\n' + code(rng, rng.int(1, 5)) + '\n```' : sentence(rng));
  const ops: PiOp[] = [];
  const table: [number, () => PiOp][] = [
    [
      16,
      () => {
        const o: PiOp = { op: 'user', text: rng.chance(0.05) ? '' : text() };
        if (rng.chance(0.12)) o.images = [img(), ...(rng.chance(0.3) ? [img()] : [])];
        if (opts.attachments !== false && rng.chance(0.1))
          o.attachments = [{ name: `f${rng.hex(3)}.png`, path: `/att/f${rng.hex(3)}.png`, mimeType: 'image/png', about: sentence(rng, 4) }];
        if (!o.images && !o.attachments && rng.chance(0.4)) o.asString = true;
        return o;
      },
    ],
    [26, () => assistantOp(rng, text, img, opts.assistantImages !== false, opts.emptyThinking !== false)],
    [
      22,
      () => {
        const o: PiOp = { op: 'toolResults', answer: rng.int(0, 5), text: rng.chance(0.05) ? '' : text(), isError: rng.chance(0.15) };
        if (rng.chance(0.1)) o.images = [img()];
        if (rng.chance(0.08)) o.extraText = sentence(rng);
        if (rng.chance(0.04)) o.orphan = true;
        return o;
      },
    ],
    [4, () => ({ op: 'compaction', summary: paragraph(rng), pick: rng.int(0, 1000), tokensBefore: rng.int(1000, 200000), unknownFirstKept: rng.chance(0.1) })],
    [5, () => ({ op: 'branch', pick: rng.int(0, 1000) })],
    [3, () => ({ op: 'branchWithSummary', pick: rng.chance(0.1) ? null : rng.int(0, 1000), summary: rng.chance(0.15) ? '' : paragraph(rng) })],
    [1, () => ({ op: 'resetLeaf' })],
    [
      3,
      () => ({
        op: 'bash',
        command: rng.pick(['ls', 'npm test', 'git status']),
        output: rng.chance(0.2) ? '' : text(),
        exitCode: rng.pick([0, 1, 2, undefined]),
        cancelled: rng.chance(0.1),
        truncated: rng.chance(0.2),
        fullOutputPath: rng.chance(0.5) ? '/tmp/full.log' : undefined,
        exclude: rng.chance(0.2),
      }),
    ],
    [
      4,
      () => ({
        op: 'customMessage',
        customType: rng.pick(['rho.notice', 'rho.error', 'note', 'skill-prompt']),
        display: rng.chance(0.5),
        content: rng.chance(0.5) ? text() : [{ kind: 'text', text: text() }, ...(rng.chance(0.3) ? [{ kind: 'image' as const, ...img() }] : [])],
      }),
    ],
    [2, () => ({ op: 'custom', customType: 'state', data: { n: rng.int(0, 99) } })],
    [2, () => ({ op: 'modelChange', model: rng.int(0, 2) })],
    [2, () => ({ op: 'thinkingLevel', level: rng.pick(['off', 'low', 'high']) })],
    [2, () => ({ op: 'label', pick: rng.int(0, 1000), label: rng.chance(0.8) ? 'mark' : undefined })],
    [1, () => ({ op: 'sessionInfo', name: sentence(rng, 3) })],
  ];
  const total = table.reduce((s, [w]) => s + w, 0);
  for (let i = 0; i < count; i++) {
    let r = rng.int(0, total - 1);
    for (const [w, make] of table) {
      if (r < w) {
        ops.push(make());
        break;
      }
      r -= w;
    }
  }
  return ops;
}

function assistantOp(rng: Rng, text: () => string, img: () => { data: string; mimeType: string }, images: boolean, emptyThinking: boolean): PiOp {
  const thinking = (): PartSpec => {
    const empty = rng.chance(0.05);
    const text = empty ? '' : sentence(rng);
    const signature = rng.chance(0.7) ? base64Bytes(rng, 40) : undefined;
    return { kind: 'thinking', text, signature: empty && !emptyThinking ? (signature ?? 'c2ln') : signature };
  };
  const call = (): PartSpec => ({ kind: 'toolCall', name: rng.pick(['read', 'bash', 'edit']), args: { path: 'src/a.ts', n: rng.int(0, 9) } });
  const model = rng.chance(0.1) ? rng.int(0, 2) : undefined;
  switch (rng.int(0, 13)) {
    case 0:
    case 1:
    case 2:
      return { op: 'assistant', parts: [{ kind: 'text', text: text() }], stopReason: 'stop', model };
    case 3:
    case 4:
      return { op: 'assistant', parts: [thinking(), { kind: 'text', text: text() }], stopReason: 'stop', model };
    case 5:
    case 6: {
      const parts: PartSpec[] = [];
      if (rng.chance(0.6)) parts.push(thinking());
      if (rng.chance(0.4)) parts.push({ kind: 'text', text: text() });
      for (let n = rng.int(1, 3); n > 0; n--) parts.push(call());
      return { op: 'assistant', parts, stopReason: 'toolUse', model };
    }
    case 7:
      return { op: 'assistant', parts: [], stopReason: 'error', errorMessage: '500 internal', model };
    case 8:
      return { op: 'assistant', parts: [{ kind: 'text', text: sentence(rng) }, call()], stopReason: 'aborted', errorMessage: 'Request was aborted', model };
    case 9:
      return { op: 'assistant', parts: [thinking()], stopReason: rng.pick(['aborted', 'length', 'stop'] as const), model };
    case 10:
      return {
        op: 'assistant',
        parts: [
          { kind: 'thinking', text: '', signature: base64Bytes(rng, 30), redacted: true },
          { kind: 'text', text: rng.chance(0.3) ? '  \n ' : text() },
        ],
        stopReason: 'stop',
        model,
      };
    case 11:
      return {
        op: 'assistant',
        parts: [{ kind: 'text', text: sentence(rng) }],
        stopReason: 'error',
        errorMessage: 'overloaded',
        retryRecovery: rng.pick(['recovered', 'superseded'] as const),
        model,
      };
    case 12:
      return images
        ? {
            op: 'assistant',
            parts: rng.chance(0.5)
              ? [{ kind: 'image', ...img() }]
              : [
                  { kind: 'text', text: sentence(rng) },
                  { kind: 'image', ...img() },
                ],
            stopReason: 'stop',
            model,
          }
        : { op: 'assistant', parts: [{ kind: 'text', text: text() }], stopReason: 'length', model };
    default:
      return { op: 'assistant', parts: [{ kind: 'text', text: sentence(rng) }, call()], stopReason: 'error', errorMessage: 'stream ended', model };
  }
}
