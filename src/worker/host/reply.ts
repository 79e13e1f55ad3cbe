// One streamed reply through pi-ai: deltas reported as they come, the final message in pi's shape
// turned into the entries a rho host appends (the reply, a result for each tool call the model made
// anyway, a loop notice for an error).
import type { Api, AssistantMessage, Context, Model, Usage } from '@mariozechner/pi-ai';
import { assistant, custom, toolResult, type EntryBody, type SdkUsage } from '../../core/index.ts';
import { loadPiAi } from './catalog.ts';
import { toolNotRunText } from './request.ts';

/** A piece of the reply as it streams. */
export interface StreamDelta {
  kind: 'text' | 'thinking';
  delta: string;
  /** This reply's cost so far (USD), as the provider reported usage. */
  cost: number;
}

/** How a reply ended. `started`: the provider answered (a response came), so something is written. */
export interface Streamed {
  message: AssistantMessage;
  started: boolean;
}

/** Streams `context` to `model` with the user's key; `onDelta` gets text and thinking as they arrive. */
export async function streamReply(
  model: Model<Api>,
  context: Context,
  opts: { apiKey: string; signal?: AbortSignal; maxTokens?: number; onDelta?: (d: StreamDelta) => void },
): Promise<Streamed> {
  const ai = await loadPiAi();
  const stream = ai.streamSimple(model, context, { apiKey: opts.apiKey, signal: opts.signal, ...(opts.maxTokens ? { maxTokens: opts.maxTokens } : {}) });
  let started = false;
  for await (const event of stream) {
    if (event.type === 'start') started = true;
    else if (event.type === 'text_delta' || event.type === 'thinking_delta') {
      const kind = event.type === 'text_delta' ? 'text' : 'thinking';
      opts.onDelta?.({ kind, delta: event.delta, cost: event.partial.usage.cost.total });
    }
  }
  const message = await stream.result();
  return { message, started: started || message.content.length > 0 };
}

// pi's usage as the AI SDK usage the core's builder takes (its `usage` gives pi's back unchanged).
function sdkUsage(u: Usage): SdkUsage {
  return {
    inputTokens: u.input + u.cacheRead + u.cacheWrite,
    outputTokens: u.output,
    inputTokenDetails: { noCacheTokens: u.input, cacheReadTokens: u.cacheRead, cacheWriteTokens: u.cacheWrite },
    cost: { ...u.cost },
  };
}

/** The assistant entry for a reply: the core's builder, with the content exactly as pi-ai streamed it (blocks and signatures as pi stores them). */
export function replyBody(m: AssistantMessage): EntryBody {
  const body = assistant({
    stopReason: m.stopReason,
    api: m.api,
    provider: m.provider,
    model: m.model,
    usage: sdkUsage(m.usage),
    ...(m.errorMessage !== undefined ? { error: m.errorMessage } : {}),
  });
  const message = body.message as Record<string, unknown>;
  message.content = m.content.map((p) => ({ ...p }));
  if (m.responseId) message.responseId = m.responseId;
  if (m.responseModel) message.responseModel = m.responseModel;
  return body;
}

/** Everything a reply appends: the reply, "not run" results for its tool calls, and on an error a loop notice. */
export function replyBodies(m: AssistantMessage, namespace = 'rho'): EntryBody[] {
  const bodies = [replyBody(m)];
  if (m.stopReason === 'toolUse') {
    for (const p of m.content) if (p.type === 'toolCall') bodies.push(toolResult(p.id, p.name, toolNotRunText(p.name), { isError: true }));
  }
  if (m.stopReason === 'error') bodies.push(custom('error', `The model's reply failed: ${m.errorMessage ?? 'unknown error'}`, { namespace }));
  return bodies;
}
