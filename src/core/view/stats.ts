import type { Entry } from '../schema/types.ts';
import { usageTotal } from '../tree/usage.ts';
import { isObject, num, str } from './parts.ts';
import type { StatsView, TotalsView } from './types.ts';

/** Zeroed totals. */
export function emptyTotals(): TotalsView {
  return { turns: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, tokens: 0, cost: 0, toolCalls: 0, userMessages: 0, errors: 0 };
}

/** The model of an assistant message as "provider/model". */
function modelOf(message: Record<string, unknown>): string {
  const provider = str(message.provider);
  const model = str(message.model, 'unknown model');
  return provider ? `${provider}/${model}` : model;
}

/** Adds one entry to totals; returns the assistant message's model when it was a turn. */
function addEntry(totals: TotalsView, entry: Entry): { model: string; prompt: number; add: (t: TotalsView) => void } | null {
  if (entry.type !== 'message' || !isObject(entry.message)) return null;
  const message = entry.message;
  if (message.role === 'user') totals.userMessages++;
  if (message.role !== 'assistant') return null;
  const usage = isObject(message.usage) ? message.usage : {};
  const cost = isObject(usage.cost) ? (num(usage.cost.total) ?? 0) : (num(usage.cost) ?? 0);
  const input = num(usage.input) ?? 0;
  const output = num(usage.output) ?? 0;
  const cacheRead = num(usage.cacheRead) ?? 0;
  const cacheWrite = num(usage.cacheWrite) ?? 0;
  const tokens = usageTotal(usage);
  const calls = Array.isArray(message.content) ? message.content.filter((p) => isObject(p) && p.type === 'toolCall').length : 0;
  const failed = message.stopReason === 'error' ? 1 : 0;
  const add = (t: TotalsView) => {
    t.turns++;
    t.input += input;
    t.output += output;
    t.cacheRead += cacheRead;
    t.cacheWrite += cacheWrite;
    t.tokens += tokens;
    t.cost += cost;
    t.toolCalls += calls;
    t.errors += failed;
  };
  add(totals);
  return { model: modelOf(message), prompt: input + cacheRead + cacheWrite, add };
}

/**
 * Stats of a session: totals for the branch and for the whole file (every branch), per model,
 * and the prompt size of each assistant turn on the branch with the compaction points.
 */
export function buildStats(fileEntries: readonly Entry[], branch: readonly Entry[]): StatsView {
  const file = emptyTotals();
  const onBranch = emptyTotals();
  const perModel = new Map<string, { model: string; branch: TotalsView; file: TotalsView }>();
  const slot = (model: string) => {
    let s = perModel.get(model);
    if (!s) perModel.set(model, (s = { model, branch: emptyTotals(), file: emptyTotals() }));
    return s;
  };
  for (const entry of fileEntries) {
    const turn = addEntry(file, entry);
    if (turn) turn.add(slot(turn.model).file);
  }
  const series: StatsView['series'] = [];
  let compactionPending = false;
  for (const entry of branch) {
    if (entry.type === 'compaction') compactionPending = true;
    const turn = addEntry(onBranch, entry);
    if (!turn) continue;
    turn.add(slot(turn.model).branch);
    if (turn.prompt > 0) {
      series.push({ turn: onBranch.turns, tokens: turn.prompt, entryId: str(entry.id), ...(compactionPending ? { compaction: true } : {}) });
      compactionPending = false;
    }
  }
  return { branch: onBranch, file, perModel: [...perModel.values()].sort((a, b) => b.file.tokens - a.file.tokens), series };
}
