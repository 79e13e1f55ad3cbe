// Streams in each provider's documented wire format, built from the shapes their docs show
// (Anthropic Messages streaming, OpenAI Chat Completions and Responses streaming, Gemini
// streamGenerateContent with alt=sse), for a reply of text, optional thinking and tool call.

/** What a recorded reply holds. */
export interface ReplySpec {
  text: string[];
  thinking?: string[];
  signature?: string;
  toolCall?: { id: string; name: string; json: string[] };
  usage?: { input: number; output: number; cacheRead?: number };
  model?: string;
}

/** One SSE frame (`event:` line optional). */
export interface Frame {
  event?: string;
  data: string;
}

const j = (v: unknown) => JSON.stringify(v);

/** Anthropic Messages: message_start, content blocks (thinking, text, tool_use), message_delta, message_stop. */
export function anthropicFrames(r: ReplySpec): Frame[] {
  const u = r.usage ?? { input: 25, output: 15 };
  const f: Frame[] = [];
  const ev = (event: string, data: Record<string, unknown>) => f.push({ event, data: j({ type: event, ...data }) });
  ev('message_start', {
    message: {
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      content: [],
      model: r.model ?? 'claude-sonnet-4-5',
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: u.input, cache_read_input_tokens: u.cacheRead ?? 0, cache_creation_input_tokens: 0, output_tokens: 1 },
    },
  });
  let index = 0;
  if (r.thinking) {
    ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '' } });
    for (const t of r.thinking) ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: t } });
    ev('content_block_delta', { index, delta: { type: 'signature_delta', signature: r.signature ?? 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' } });
    ev('content_block_stop', { index });
    index++;
  }
  f.push({ event: 'ping', data: j({ type: 'ping' }) });
  ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
  for (const t of r.text) ev('content_block_delta', { index, delta: { type: 'text_delta', text: t } });
  ev('content_block_stop', { index });
  if (r.toolCall) {
    index++;
    ev('content_block_start', { index, content_block: { type: 'tool_use', id: r.toolCall.id, name: r.toolCall.name, input: {} } });
    for (const p of r.toolCall.json) ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: p } });
    ev('content_block_stop', { index });
  }
  ev('message_delta', { delta: { stop_reason: r.toolCall ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: u.output } });
  ev('message_stop', {});
  return f;
}

/** OpenAI Chat Completions: chunks with deltas, a finish_reason, then the usage chunk and [DONE]. */
export function chatFrames(r: ReplySpec): Frame[] {
  const u = r.usage ?? { input: 25, output: 15 };
  const base = {
    id: 'chatcmpl-123',
    object: 'chat.completion.chunk',
    created: 1694268190,
    model: r.model ?? 'gpt-4o-mini',
    system_fingerprint: 'fp_44709d6fcb',
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    data: j({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }),
  });
  const f: Frame[] = [chunk({ role: 'assistant', content: '' })];
  for (const t of r.text) f.push(chunk({ content: t }));
  if (r.toolCall) {
    f.push(chunk({ tool_calls: [{ index: 0, id: r.toolCall.id, type: 'function', function: { name: r.toolCall.name, arguments: '' } }] }));
    for (const p of r.toolCall.json) f.push(chunk({ tool_calls: [{ index: 0, function: { arguments: p } }] }));
  }
  f.push(chunk({}, r.toolCall ? 'tool_calls' : 'stop'));
  f.push({ data: j({ ...base, choices: [], usage: { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output } }) });
  f.push({ data: '[DONE]' });
  return f;
}

/** OpenAI Responses: response.created … output_text deltas … response.completed with usage. */
export function responsesFrames(r: ReplySpec): Frame[] {
  const u = r.usage ?? { input: 25, output: 15 };
  const text = r.text.join('');
  const item = {
    id: 'msg_67ccd3acc8d48190a77525dc6de64b4104becb25c7a41f1d',
    type: 'message',
    status: 'in_progress',
    role: 'assistant',
    content: [] as unknown[],
  };
  const resp = {
    id: 'resp_67ccd3a9da748190baa7f1570fe91ac604becb25c7a41f1d',
    object: 'response',
    created_at: 1741476777,
    status: 'in_progress',
    model: r.model ?? 'gpt-4.1',
    output: [] as unknown[],
  };
  const f: Frame[] = [];
  let seq = 0;
  const ev = (type: string, data: Record<string, unknown>) => f.push({ event: type, data: j({ type, sequence_number: seq++, ...data }) });
  ev('response.created', { response: resp });
  ev('response.in_progress', { response: resp });
  ev('response.output_item.added', { output_index: 0, item });
  ev('response.content_part.added', { item_id: item.id, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
  for (const t of r.text) ev('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: t });
  ev('response.output_text.done', { item_id: item.id, output_index: 0, content_index: 0, text });
  const part = { type: 'output_text', text, annotations: [] };
  ev('response.content_part.done', { item_id: item.id, output_index: 0, content_index: 0, part });
  const done = { ...item, status: 'completed', content: [part] };
  ev('response.output_item.done', { output_index: 0, item: done });
  ev('response.completed', {
    response: {
      ...resp,
      status: 'completed',
      output: [done],
      usage: {
        input_tokens: u.input,
        input_tokens_details: { cached_tokens: u.cacheRead ?? 0 },
        output_tokens: u.output,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: u.input + u.output,
      },
    },
  });
  return f;
}

/** Gemini streamGenerateContent?alt=sse: candidates with text parts; the last with finishReason and usageMetadata. */
export function googleFrames(r: ReplySpec): Frame[] {
  const u = r.usage ?? { input: 25, output: 15 };
  const f: Frame[] = r.text.map((t) => ({
    data: j({ candidates: [{ content: { parts: [{ text: t }], role: 'model' }, index: 0 }], modelVersion: r.model ?? 'gemini-2.5-flash' }),
  }));
  f.push({
    data: j({
      candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: u.input, candidatesTokenCount: u.output, totalTokenCount: u.input + u.output },
      modelVersion: r.model ?? 'gemini-2.5-flash',
    }),
  });
  return f;
}

/** The SSE bytes of a frame. */
export function sse(frame: Frame): string {
  return `${frame.event ? `event: ${frame.event}\n` : ''}data: ${frame.data}\n\n`;
}
