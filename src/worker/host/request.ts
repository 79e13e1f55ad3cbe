// The request for a branch: the core's `context` decides which messages go (pi's
// buildSessionContext + convertToLlm with §0's rules: compaction summary first, empty turns
// dropped, unanswered tool calls answered, pictures only to models that take them); here they
// become pi-ai messages, each assistant turn with its own api/provider/model so pi-ai treats
// turns of another model as pi does.
import type { Api, AssistantMessage, Context, Message, Model, Tool, ToolResultMessage, UserMessage } from '@mariozechner/pi-ai';
import { compacted, context, isSentAssistant, type Entry, type ModelMessage } from '../../core/index.ts';

/** The short system prompt every request from this device starts with. */
export const SYSTEM_PROMPT = [
  'You are continuing a coding-agent session in Rho Sessions, an app on the user’s phone or browser, with the user’s own API key.',
  'No tools run here: you cannot read or change files, run commands or browse. Tool calls and results earlier in the conversation were made by the agent on the user’s computer.',
  'Answer from the conversation; when something needs the computer, say what to run there.',
].join(' ');

/** What a tool listed for the provider says (tools are listed only so history tool calls stay valid). */
export const TOOL_UNAVAILABLE_DESCRIPTION = 'Runs only on the computer where the agent works; it cannot run on this device.';

/** The tool result given to a tool call the model makes here anyway. */
export function toolNotRunText(name: string): string {
  return `${name} was not run: tools cannot run on this device (Rho Sessions on a phone or browser). Continue this session in pi on the computer to run it.`;
}

type Msg = Record<string, unknown>;
const ZERO_USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

// The assistant entries the core sends, in order (one assistant message each).
function sentAssistants(branch: readonly Entry[]): Msg[] {
  const { compaction, kept, later } = compacted(branch);
  const entries = compaction ? [...kept, ...later] : later;
  const out: Msg[] = [];
  for (const e of entries) {
    const m = e.message as Msg | undefined;
    if (e.type === 'message' && m?.role === 'assistant' && isSentAssistant(m)) out.push(m);
  }
  return out;
}

function userOf(msg: Extract<ModelMessage, { role: 'user' }>): UserMessage {
  const content: UserMessage['content'] = [];
  for (const p of typeof msg.content === 'string' ? [{ type: 'text' as const, text: msg.content }] : msg.content) {
    if (p.type === 'text') content.push({ type: 'text', text: p.text });
    else if (p.type === 'image') content.push({ type: 'image', data: String(p.image), mimeType: p.mediaType ?? 'image/png' });
  }
  return { role: 'user', content, timestamp: 0 };
}

function assistantOf(msg: Extract<ModelMessage, { role: 'assistant' }>, source: Msg | undefined): AssistantMessage {
  const content: AssistantMessage['content'] = [];
  for (const p of typeof msg.content === 'string' ? [{ type: 'text' as const, text: msg.content }] : msg.content) {
    if (p.type === 'text') content.push({ type: 'text', text: p.text });
    else if (p.type === 'reasoning') {
      const signature = (p.providerOptions?.pi as { thinkingSignature?: string } | undefined)?.thinkingSignature;
      content.push(signature ? { type: 'thinking', thinking: p.text, thinkingSignature: signature } : { type: 'thinking', thinking: p.text });
    } else if (p.type === 'tool-call')
      content.push({ type: 'toolCall', id: p.toolCallId, name: p.toolName, arguments: (p.input ?? {}) as Record<string, unknown> });
  }
  const hasCall = content.some((p) => p.type === 'toolCall');
  return {
    role: 'assistant',
    content,
    api: String(source?.api ?? 'unknown') as Api,
    provider: String(source?.provider ?? 'unknown'),
    model: String(source?.model ?? 'unknown'),
    usage: ZERO_USAGE,
    // §0.3.3 keeps an error or aborted turn that has text or tool calls: pi-ai would skip it.
    stopReason: hasCall ? 'toolUse' : 'stop',
    timestamp: 0,
  };
}

function toolResultsOf(msg: Extract<ModelMessage, { role: 'tool' }>): ToolResultMessage[] {
  const out: ToolResultMessage[] = [];
  for (const part of msg.content) {
    if (part.type !== 'tool-result') continue;
    const o = part.output as { type: string; value: unknown };
    const content: ToolResultMessage['content'] = [];
    if (o.type === 'content' && Array.isArray(o.value)) {
      for (const v of o.value as Array<Record<string, string>>) {
        if (v.type === 'text') content.push({ type: 'text', text: v.text });
        else if (v.type === 'image-data') content.push({ type: 'image', data: v.data, mimeType: v.mediaType });
      }
    } else content.push({ type: 'text', text: String(o.value ?? '') });
    out.push({ role: 'toolResult', toolCallId: part.toolCallId, toolName: part.toolName, content, isError: o.type === 'error-text', timestamp: 0 });
  }
  return out;
}

/** The pi-ai messages for a branch, for a model (its inputs decide whether pictures go). */
export function requestMessages(branch: readonly Entry[], model: Pick<Model<Api>, 'input'>): Message[] {
  const sources = sentAssistants(branch);
  let next = 0;
  const out: Message[] = [];
  for (const msg of context(branch, { inputs: model.input })) {
    if (msg.role === 'user') out.push(userOf(msg));
    else if (msg.role === 'assistant') out.push(assistantOf(msg, sources[next++]));
    else if (msg.role === 'tool') out.push(...toolResultsOf(msg));
  }
  return out;
}

/** The tools to list so the history's tool calls and results are valid for the provider: each name once, none runnable. */
export function historyTools(messages: readonly Message[]): Tool[] {
  const names = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const p of m.content) if (p.type === 'toolCall') names.add(p.name);
    if (m.role === 'toolResult') names.add(m.toolName);
  }
  return [...names].map((name) => ({ name, description: TOOL_UNAVAILABLE_DESCRIPTION, parameters: { type: 'object', properties: {} } as never }));
}

/** The whole request for a branch: system prompt, messages, and the history's tools. */
export function buildRequest(branch: readonly Entry[], model: Pick<Model<Api>, 'input'>): Context {
  const messages = requestMessages(branch, model);
  const tools = historyTools(messages);
  return { systemPrompt: SYSTEM_PROMPT, messages, ...(tools.length ? { tools } : {}) };
}
