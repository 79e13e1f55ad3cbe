// Codex tool items → pi tool calls (in the assistant message) and `toolResult` messages, paired by
// `call_id` (session-format.md §3.1, §3.5). Ids follow pi's openai-responses provider:
// `<call_id>|<item id>` when the item has an id, else the call id alone.
import { shortHash } from './ids.ts';
import { contentParts, isObj, type UserPart } from './parts.ts';

type Obj = Record<string, unknown>;

export interface ToolCallPart {
  type: 'toolCall';
  id: string;
  name: string;
  arguments: Obj;
}

/** Response item types that call a tool, and the ones that carry a call's output. */
export const CALL_TYPES = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call', 'web_search_call']);
export const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output', 'tool_search_output']);

function parseArguments(raw: unknown): Obj {
  if (isObj(raw)) return raw;
  if (typeof raw !== 'string') return {};
  try {
    const v = JSON.parse(raw);
    return isObj(v) ? v : { raw };
  } catch {
    return { raw };
  }
}

/** The call id Codex pairs on (web searches carry none: one is derived from the item, stable per line). */
export function callIdOf(item: Obj, line: number): string {
  if (typeof item.call_id === 'string' && item.call_id) return item.call_id;
  if (typeof item.id === 'string' && item.id) return item.id;
  return `ws_${shortHash(`${line}:${JSON.stringify(item.action ?? null)}`)}`;
}

/** A tool-calling item as a pi tool call. */
export function toolCallPart(item: Obj, line: number): ToolCallPart {
  const callId = callIdOf(item, line);
  const id = typeof item.id === 'string' && item.id && item.id !== callId ? `${callId}|${item.id}` : callId;
  switch (item.type) {
    case 'custom_tool_call':
      return {
        type: 'toolCall',
        id,
        name: String(item.name ?? 'custom_tool'),
        arguments: { input: typeof item.input === 'string' ? item.input : JSON.stringify(item.input ?? null) },
      };
    case 'local_shell_call':
      return { type: 'toolCall', id, name: 'local_shell', arguments: isObj(item.action) ? item.action : {} };
    case 'tool_search_call':
      return { type: 'toolCall', id, name: 'tool_search', arguments: parseArguments(item.arguments) };
    case 'web_search_call':
      return { type: 'toolCall', id, name: 'web_search', arguments: isObj(item.action) ? item.action : {} };
    default:
      return { type: 'toolCall', id, name: String(item.name ?? 'tool'), arguments: parseArguments(item.arguments) };
  }
}

/** What a web search did, as the result text of its (server-side) call. */
export function webSearchText(item: Obj): string {
  const a = isObj(item.action) ? item.action : {};
  if (a.type === 'search') return `Searched the web: ${String(a.query ?? (Array.isArray(a.queries) ? a.queries.join('; ') : ''))}`;
  if (a.type === 'open_page') return `Opened ${String(a.url ?? '')}`;
  if (a.type === 'find_in_page') return `Looked for "${String(a.pattern ?? '')}" in ${String(a.url ?? '')}`;
  return `Web search (${String(item.status ?? 'done')})`;
}

const EXIT = /(?:^|\n)(?:Exit code:|Process exited with code) (-?\d+)/;

/** Whether an output says its command failed: a non-zero exit code in Codex's wording, or `success: false`. */
function failed(text: string, payload: unknown): boolean {
  if (isObj(payload) && payload.success === false) return true;
  const m = EXIT.exec(text.slice(0, 400));
  if (m) return m[1] !== '0';
  if (text.startsWith('{')) {
    try {
      const v = JSON.parse(text);
      if (isObj(v) && isObj(v.metadata) && typeof v.metadata.exit_code === 'number') return v.metadata.exit_code !== 0;
    } catch {
      // not JSON after all
    }
  }
  return false;
}

/** An output item's content as pi parts (text and images) and whether it reports a failure. */
export function toolOutput(item: Obj): { content: UserPart[]; isError: boolean } {
  if (item.type === 'tool_search_output') {
    const tools = Array.isArray(item.tools) ? item.tools : [];
    const names = tools.flatMap((t) =>
      isObj(t) ? [isObj(t) && Array.isArray(t.tools) ? `${t.name}: ${t.tools.map((x) => (isObj(x) ? x.name : '')).join(', ')}` : String(t.name ?? '')] : [],
    );
    return {
      content: [{ type: 'text', text: names.length ? `Tools found:\n${names.join('\n')}` : `Tool search ${String(item.status ?? 'done')}` }],
      isError: false,
    };
  }
  const out = item.output;
  if (typeof out === 'string') return { content: [{ type: 'text', text: out }], isError: failed(out, null) };
  if (Array.isArray(out)) {
    const content = contentParts(out);
    return { content, isError: false };
  }
  if (isObj(out)) {
    const content = contentParts(out.content);
    const text = content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    return { content, isError: failed(text, out) };
  }
  return { content: [], isError: false };
}
