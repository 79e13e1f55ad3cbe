// Claude (Anthropic Messages API) content blocks → pi content parts (session-format.md §3.1):
// text, thinking (signature → `thinkingSignature`), redacted thinking (as pi's Anthropic provider
// stores it: `[Reasoning redacted]`, `redacted: true`, the opaque data as the signature), tool_use → toolCall, base64 images → pi images. Blocks pi has
// no part for are kept as they are in assistant content (pi ignores unknown parts) and become text
// notes in user and tool-result content (which pi sends to the model as text and images only).

export type Json = Record<string, unknown>;
export type Part = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** A Claude image block as a pi image part, or null when it is not inline base64. */
function image(block: Json): Part | null {
  const source = isObject(block.source) ? block.source : null;
  if (source?.type !== 'base64' || typeof source.data !== 'string') return null;
  return { type: 'image', data: source.data, mimeType: str(source.media_type) || 'image/png' };
}

/** A block pi cannot hold in user or tool-result content, as a short text note. */
function note(block: Json): Part {
  const type = str(block.type) || 'block';
  if (type === 'image') {
    const source = isObject(block.source) ? block.source : {};
    return { type: 'text', text: `[image: ${str(source.url) || str(source.type) || 'not inline'}]` };
  }
  if (type === 'tool_reference') return { type: 'text', text: `[tool reference: ${str(block.tool_name)}]` };
  if (type === 'document') {
    const source = isObject(block.source) ? block.source : {};
    return { type: 'text', text: `[document: ${str(block.title) || str(source.media_type) || 'attached'}]` };
  }
  if (typeof block.text === 'string') return { type: 'text', text: block.text };
  return { type: 'text', text: `[${type}]` };
}

/** User or tool-result content: text and images as pi parts, anything else as a note. */
export function userParts(blocks: unknown[]): Part[] {
  const out: Part[] = [];
  for (const b of blocks) {
    if (typeof b === 'string') out.push({ type: 'text', text: b });
    else if (!isObject(b)) continue;
    else if (b.type === 'text') out.push({ type: 'text', text: str(b.text) });
    else if (b.type === 'image') out.push(image(b) ?? note(b));
    else out.push(note(b));
  }
  return out;
}

/** A tool_result block's content (a string or blocks) as pi tool-result parts. */
export function resultParts(content: unknown): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (Array.isArray(content)) return userParts(content);
  return [];
}

/** Assistant content blocks as pi parts (unknown blocks kept as they are). */
export function assistantParts(blocks: unknown, out: Part[]): Part[] {
  if (typeof blocks === 'string') {
    if (blocks) out.push({ type: 'text', text: blocks });
    return out;
  }
  if (!Array.isArray(blocks)) return out;
  for (const b of blocks) {
    if (!isObject(b)) continue;
    switch (b.type) {
      case 'text':
        out.push({ type: 'text', text: str(b.text) });
        break;
      case 'thinking': {
        const part: Part = { type: 'thinking', thinking: str(b.thinking) };
        if (typeof b.signature === 'string' && b.signature) part.thinkingSignature = b.signature;
        out.push(part);
        break;
      }
      case 'redacted_thinking':
        out.push({ type: 'thinking', thinking: '[Reasoning redacted]', thinkingSignature: str(b.data), redacted: true });
        break;
      case 'tool_use':
        out.push({ type: 'toolCall', id: str(b.id), name: str(b.name), arguments: isObject(b.input) ? b.input : { input: b.input ?? null } });
        break;
      case 'image':
        out.push(image(b) ?? b);
        break;
      default:
        out.push(b);
    }
  }
  return out;
}

/** The text of a user message's content (a string, or its text blocks joined). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b): b is Json => isObject(b) && b.type === 'text')
    .map((b) => str(b.text))
    .join('\n');
}
