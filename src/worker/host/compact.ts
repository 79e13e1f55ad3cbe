// Compact: the branch before a cut point summarized by the chosen model as pi's compaction does
// (its prompts, its cut point, its file lists), written as pi's CompactionEntry with
// `method: "soft"`, `fromExtension: false` and `tokensAfter`. The next request starts from the
// summary; the core's `context` adds the attachments summarized away to the summary message.
import type { Api, Model } from '@mariozechner/pi-ai';
import { compaction, compactionSummaryText, type Entry } from '../../core/index.ts';
import { ApiFailure } from '../protocol.ts';
import { resolveModel } from './catalog.ts';
import { SUMMARIZATION_PROMPT, SUMMARIZATION_SYSTEM_PROMPT, TURN_PREFIX_SUMMARIZATION_PROMPT, UPDATE_SUMMARIZATION_PROMPT } from './compact-prompts.ts';
import { contextMessages, estimateTokens, fileSections, planCompaction, RESERVE_TOKENS, serializeConversation } from './compact-plan.ts';
import { streamReply } from './reply.ts';
import { configFor, sessionAt, type HostDeps, type ModelChoice } from './turn.ts';

export interface CompactParams extends ModelChoice {
  id: string;
  leafId?: string | null;
}

export interface CompactResult {
  leafId: string;
  tokensBefore: number;
  tokensAfter: number;
  firstKeptEntryId: string;
}

async function summarize(model: Model<Api>, apiKey: string, prompt: string, maxTokens: number, signal?: AbortSignal): Promise<string> {
  const context = {
    systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
    messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: prompt }], timestamp: 0 }],
  };
  const { message } = await streamReply(model, context, { apiKey, signal, maxTokens });
  if (message.stopReason === 'aborted') throw new ApiFailure('aborted', 'Compaction stopped; nothing was written.');
  if (message.stopReason === 'error')
    throw new ApiFailure('provider', `Summarization failed: ${message.errorMessage ?? 'unknown error'}. Nothing was written.`);
  return message.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');
}

/** Compacts the branch ending at `leafId` (the file's leaf when absent). */
export async function compactBranch(deps: HostDeps, params: CompactParams, signal?: AbortSignal): Promise<CompactResult> {
  const config = await configFor(deps.keys, params);
  const model = await resolveModel(config, params.model);
  const { session, branch } = await sessionAt(deps, params.id, params.leafId);
  const plan = planCompaction(branch);
  if (!plan) throw new ApiFailure('invalid-input', 'Nothing to compact: the branch is empty or ends in a compaction.');
  const conversation = (messages: typeof plan.toSummarize) => `<conversation>\n${serializeConversation(messages)}\n</conversation>\n\n`;
  let history = conversation(plan.toSummarize);
  if (plan.previousSummary !== undefined) history += `<previous-summary>\n${plan.previousSummary}\n</previous-summary>\n\n`;
  history += plan.previousSummary !== undefined ? UPDATE_SUMMARIZATION_PROMPT : SUMMARIZATION_PROMPT;
  const full = Math.floor(0.8 * RESERVE_TOKENS);
  let summary: string;
  if (plan.turnPrefix.length > 0) {
    const [h, t] = await Promise.all([
      plan.toSummarize.length ? summarize(model, config.apiKey, history, full, signal) : Promise.resolve('No prior history.'),
      summarize(model, config.apiKey, conversation(plan.turnPrefix) + TURN_PREFIX_SUMMARIZATION_PROMPT, Math.floor(0.5 * RESERVE_TOKENS), signal),
    ]);
    summary = `${h}\n\n---\n\n**Turn Context (split turn):**\n\n${t}`;
  } else summary = await summarize(model, config.apiKey, history, full, signal);
  summary += fileSections(plan.readFiles, plan.modifiedFiles);

  // What the next request holds, by characters (the last reply's usage counts the context before it):
  // the summary (with the attachments it stands for), then the kept entries.
  const firstKept = branch.findIndex((e) => e.id === plan.firstKeptEntryId);
  const kept = branch.slice(firstKept);
  const summaryMessage = { role: 'user', content: [{ type: 'text', text: compactionSummaryText(summary, branch.slice(0, firstKept)) }] };
  const tokensAfter = [summaryMessage, ...contextMessages(kept as Entry[])].reduce((n, m) => n + estimateTokens(m), 0);

  const body = compaction(summary, plan.firstKeptEntryId, plan.tokensBefore, tokensAfter);
  body.details = { readFiles: plan.readFiles, modifiedFiles: plan.modifiedFiles };
  const written = await deps.store.withWriteLock(params.id, async () => {
    const at = await sessionAt(deps, params.id, session.leafId);
    return deps.files.append(params.id, at.session, [body]);
  });
  const entry = written.entries[0];
  return { leafId: String(entry.id), tokensBefore: plan.tokensBefore, tokensAfter, firstKeptEntryId: plan.firstKeptEntryId };
}
