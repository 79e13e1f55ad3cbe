/**
 * The comparison of our context with pi's. pi gives pi-ai messages (`buildSessionContext` +
 * `convertToLlm`); we give AI SDK ModelMessages. Both are mapped to one comparable shape, and on
 * pi's side ONLY the differences session-format.md §0.3 documents are applied:
 *
 *  §0.3.1  compaction summary: pi's text, plus the list of attachments summarized away
 *  §0.3.3  assistant turns with no text (non-whitespace), no tool calls and no images are dropped,
 *          and so are turns carrying `retryRecovery`
 *  §0.3.4  an unanswered tool call gets an "aborted" error result before the next user/assistant
 *          message or the end (pi leaves that to pi-ai, which says "No result provided")
 *  §0.3.5  thinking → reasoning (signature kept), redacted thinking not sent; assistant images not
 *          sent, an image-only turn becomes "(made a picture)"
 *  §0.3.6  without "image" input: each run of images → pi-ai's placeholder note
 *  §0.3.7  unresolved omp blob refs are treated like images the model cannot take
 *
 * Representation mappings (not behaviour differences, forced by the AI SDK's shape):
 *  - a string `content` is one text part; a user/tool image is {data, mimeType} either way;
 *  - several tool results in one AI SDK `tool` message are compared one by one;
 *  - a text-only tool result is ONE string in the AI SDK (`text`/`error-text` output): pi's text
 *    parts are joined with "\n" (the core's choice; §0.3.8 does not name a separator);
 *  - an AI SDK `content` output (tool result with images) cannot say "error": isError is not
 *    compared for those (null on both sides);
 *  - a thinking signature is compared as "the string under a key named like *signature* in the
 *    part's providerOptions".
 */

/** pi's wrappers (§4.2; not exported by the package's entry point). */
export const COMPACTION_SUMMARY_PREFIX = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
export const BRANCH_SUMMARY_PREFIX = 'The following is a summary of a branch that this conversation came back from:\n\n<summary>\n';

/** A content part in comparable form. */
export type CPart =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'file'; mimeType: string }
  | { type: 'reasoning'; text: string; signature: string | null }
  | { type: 'tool-call'; id: string; name: string; input: unknown };

/** A message in comparable form. */
export type CMsg =
  | { role: 'user' | 'assistant' | 'system'; parts: CPart[] }
  | { role: 'tool'; toolCallId: string; toolName: string; isError: boolean | null; parts: CPart[] };

/** Text the core answers an unanswered tool call with (§0.3.4). */
export const ABORTED = 'aborted';
/** Text of an image-only assistant turn (§0.3.5). */
export const MADE_A_PICTURE = '(made a picture)';
/** pi-ai's notes for images a model cannot take (§4.2, reused by §0.3.6). */
export const IMAGE_NOTE = '(image omitted: model does not support images)';
export const TOOL_IMAGE_NOTE = '(tool image omitted: model does not support images)';
/** Separator of a text-only tool result's parts in the AI SDK's single string. */
export const TOOL_TEXT_JOIN = '\n';

type Any = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// Ours: AI SDK ModelMessage[] → CMsg[]
// ---------------------------------------------------------------------------------------------

function findSignature(options: unknown): string | null {
  const stack: unknown[] = [options];
  while (stack.length > 0) {
    const v = stack.pop();
    if (!v || typeof v !== 'object') continue;
    for (const [k, x] of Object.entries(v as Any)) {
      if (typeof x === 'string' && /signature/i.test(k)) return x;
      if (x && typeof x === 'object') stack.push(x);
    }
  }
  return null;
}

function imageData(x: unknown): string {
  if (typeof x === 'string') return x.replace(/^data:[^;,]*;base64,/, '');
  if (x instanceof Uint8Array) return Buffer.from(x).toString('base64');
  if (x instanceof URL) return x.href;
  return String(x);
}

function sdkPart(p: Any): CPart {
  switch (p.type) {
    case 'text':
      return { type: 'text', text: p.text };
    case 'image':
      return { type: 'image', data: imageData(p.image), mimeType: p.mediaType ?? '' };
    case 'file':
      return p.mediaType?.startsWith('image/') ? { type: 'image', data: imageData(p.data), mimeType: p.mediaType } : { type: 'file', mimeType: p.mediaType };
    case 'image-data':
    case 'media':
      return { type: 'image', data: imageData(p.data), mimeType: p.mediaType ?? '' };
    case 'file-data':
      return { type: 'image', data: imageData(p.data), mimeType: p.mediaType ?? '' };
    case 'reasoning':
      return { type: 'reasoning', text: p.text, signature: findSignature(p.providerOptions) };
    case 'tool-call':
      return { type: 'tool-call', id: p.toolCallId, name: p.toolName, input: p.input };
    default:
      return { type: 'text', text: `<<unexpected ${String(p.type)} part>>` };
  }
}

/** Our context in comparable form. */
export function fromModelMessages(messages: readonly Any[]): CMsg[] {
  const out: CMsg[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      for (const r of m.content as Any[]) {
        const o = r.output as Any;
        if (o.type === 'text' || o.type === 'error-text') {
          out.push({
            role: 'tool',
            toolCallId: r.toolCallId,
            toolName: r.toolName,
            isError: o.type === 'error-text',
            parts: [{ type: 'text', text: o.value }],
          });
        } else if (o.type === 'content') {
          out.push({ role: 'tool', toolCallId: r.toolCallId, toolName: r.toolName, isError: null, parts: (o.value as Any[]).map(sdkPart) });
        } else {
          out.push({
            role: 'tool',
            toolCallId: r.toolCallId,
            toolName: r.toolName,
            isError: o.type.startsWith('error'),
            parts: [{ type: 'text', text: `<<${o.type} output>> ${JSON.stringify(o.value)}` }],
          });
        }
      }
    } else {
      const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content } as CPart] : (m.content as Any[]).map(sdkPart);
      out.push({ role: m.role, parts });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// pi: convertToLlm(buildSessionContext(...).messages) → CMsg[] with the §0.3 differences applied
// ---------------------------------------------------------------------------------------------

/** How the expected context is derived from pi's. */
export interface ExpectOptions {
  /** §0.3.6: the model takes images (default true). */
  images?: boolean;
  /** §0.3.1: the lines listing attachments summarized away (computed by `summarizedAttachments`). */
  attachmentLines?: string[];
}

const isBlob = (p: Any) => typeof p.data === 'string' && p.data.startsWith('blob:sha256:');

// §0.3.6/7: each run of images the model cannot take becomes one note (pi-ai's replaceImagesWithPlaceholder).
function mediaParts(content: unknown, images: boolean, note: string): CPart[] {
  const list: Any[] = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  const out: CPart[] = [];
  let inRun = false;
  for (const p of list) {
    if (p?.type === 'image') {
      if (images && !isBlob(p)) {
        out.push({ type: 'image', data: p.data, mimeType: p.mimeType });
        inRun = false;
      } else if (!inRun) {
        out.push({ type: 'text', text: note });
        inRun = true;
      }
    } else if (p?.type === 'text') {
      out.push({ type: 'text', text: p.text });
      inRun = false;
    }
  }
  return out;
}

// §0.3.3: kept only with text (non-whitespace), a tool call or an image, and no retryRecovery.
function isSentAssistant(m: Any): boolean {
  if (m.retryRecovery != null) return false;
  const content: Any[] = Array.isArray(m.content) ? m.content : [];
  return content.some((p) => (p.type === 'text' && typeof p.text === 'string' && p.text.trim() !== '') || p.type === 'toolCall' || p.type === 'image');
}

// §0.3.5: thinking → reasoning, redacted dropped; images dropped, image-only → "(made a picture)".
function assistantParts(m: Any): CPart[] {
  const parts: CPart[] = [];
  let hasText = false,
    hasCall = false,
    hasImage = false;
  for (const p of m.content as Any[]) {
    if (p.type === 'thinking' && !p.redacted) parts.push({ type: 'reasoning', text: p.thinking, signature: p.thinkingSignature ?? null });
    else if (p.type === 'text') {
      parts.push({ type: 'text', text: p.text });
      hasText ||= p.text.trim() !== '';
    } else if (p.type === 'toolCall') {
      parts.push({ type: 'tool-call', id: p.id, name: p.name, input: p.arguments });
      hasCall = true;
    } else if (p.type === 'image') hasImage = true;
  }
  if (!hasText && !hasCall && hasImage) parts.push({ type: 'text', text: MADE_A_PICTURE });
  return parts;
}

/** pi's LLM messages (after convertToLlm) → what our context must be, per §0.3. */
export function expectedFromPi(llm: readonly Any[], opts: ExpectOptions = {}): CMsg[] {
  const images = opts.images !== false;
  const out: CMsg[] = [];
  llm.forEach((m, i) => {
    if (m.role === 'user') {
      const parts = mediaParts(m.content, images, IMAGE_NOTE);
      // §0.3.1: the compaction summary is always first and is the only message with pi's prefix.
      if (i === 0 && opts.attachmentLines?.length && parts.length === 1 && parts[0].type === 'text' && parts[0].text.startsWith(COMPACTION_SUMMARY_PREFIX)) {
        parts[0] = { type: 'text', text: parts[0].text + '\n\nAttachments from the summarized conversation:\n' + opts.attachmentLines.join('\n') };
      }
      out.push({ role: 'user', parts });
    } else if (m.role === 'assistant') {
      if (isSentAssistant(m)) out.push({ role: 'assistant', parts: assistantParts(m) });
    } else if (m.role === 'toolResult') {
      const parts = mediaParts(m.content, images, TOOL_IMAGE_NOTE);
      if (parts.some((p) => p.type === 'image')) out.push({ role: 'tool', toolCallId: m.toolCallId, toolName: m.toolName, isError: null, parts });
      else
        out.push({
          role: 'tool',
          toolCallId: m.toolCallId,
          toolName: m.toolName,
          isError: m.isError === true,
          parts: [{ type: 'text', text: parts.map((p) => (p as { text: string }).text).join(TOOL_TEXT_JOIN) }],
        });
    } else {
      out.push({ role: 'user', parts: [{ type: 'text', text: `<<pi role ${String(m.role)} not converted>>` }] });
    }
  });
  return answerDangling(out);
}

// §0.3.4, in pi-ai's transformMessages order (a window per assistant turn), with "aborted".
function answerDangling(msgs: CMsg[]): CMsg[] {
  const out: CMsg[] = [];
  let pending: { id: string; name: string }[] = [];
  let answered = new Set<string>();
  const flush = () => {
    for (const c of pending)
      if (!answered.has(c.id)) out.push({ role: 'tool', toolCallId: c.id, toolName: c.name, isError: true, parts: [{ type: 'text', text: ABORTED }] });
    pending = [];
    answered = new Set();
  };
  for (const m of msgs) {
    if (m.role === 'tool') answered.add(m.toolCallId);
    else {
      flush();
      if (m.role === 'assistant') {
        const seen = new Set<string>();
        for (const p of m.parts)
          if (p.type === 'tool-call' && !seen.has(p.id)) {
            seen.add(p.id);
            pending.push({ id: p.id, name: p.name });
          }
      }
    }
    out.push(m);
  }
  flush();
  return out;
}
