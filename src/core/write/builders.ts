// Entry builders (§0.4.4, the rho host's Rho.Session builders): bodies without id/parentId/timestamp, which
// `append` adds. Messages get their `timestamp` (ms) from `append`'s clock too, keeping these pure.
import { toBase64 } from './base64.ts';
import { toPi } from './model-spec.ts';
import { usage as piUsage, type SdkUsage } from '../tree/usage.ts';

/** Picture bytes (or base64) with their MIME type. */
export interface Picture {
  mimeType: string;
  data: Uint8Array | string;
}

/** A file going with a user message, as the host builds it (Rho.Session's `attachment()`). */
export interface AttachmentInput {
  kind: 'image' | 'text' | 'pdf' | 'file';
  name: string;
  /** Its copy in the workspace. */
  path: string;
  mimeType: string;
  /** One line for the model (size, when and where a photo was taken, …). */
  about: string;
  /** kind "image": the picture for the model. */
  image?: Picture | null;
  /** kind "text": its text, already cut to the output budget. */
  text?: string | null;
  /** kind "pdf": page count when known. */
  pages?: number | null;
}

/** An entry body: what `append` stamps with id, parentId and timestamp. */
export interface EntryBody {
  type: string;
  [k: string]: unknown;
}

const b64 = (data: Uint8Array | string) => (typeof data === 'string' ? data : toBase64(data));
const imagePart = (p: Picture) => ({ type: 'image', data: b64(p.data), mimeType: p.mimeType });

/** Escapes an attribute value of the attachment envelope: `&`, `"` and `<`. */
export function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/** The envelope text part of one attachment: `<attachment name type path>\nABOUT\n[TEXT\n]</attachment>`. */
export function attachmentEnvelope(a: AttachmentInput): string {
  const open = `<attachment name="${escapeAttribute(a.name)}" type="${escapeAttribute(a.mimeType)}" path="${escapeAttribute(a.path)}">`;
  const body = typeof a.text === 'string' ? `${a.text}\n` : '';
  return `${open}\n${a.about}\n${body}</attachment>`;
}

/**
 * A user message: the typed text (omitted when empty), then per attachment its envelope and, for a
 * picture, its image part. `steering` marks a message sent while the agent ran; `ask`/`from` a
 * question another agent asked. The `attachments` field lists them for the chat.
 */
export function user(text: string, opts: { attachments?: AttachmentInput[]; steering?: boolean; ask?: string; from?: string } = {}): EntryBody {
  const content: Record<string, unknown>[] = text === '' ? [] : [{ type: 'text', text }];
  const list = opts.attachments ?? [];
  for (const a of list) {
    content.push({ type: 'text', text: attachmentEnvelope(a) });
    if (a.image) content.push(imagePart(a.image));
  }
  const message: Record<string, unknown> = { role: 'user', content };
  if (list.length) message.attachments = list.map(({ kind, name, path, mimeType, about }) => ({ kind, name, path, mimeType, about }));
  if (opts.steering) message.steering = true;
  if (opts.ask !== undefined) message.ask = opts.ask;
  if (opts.from !== undefined) message.from = opts.from;
  return { type: 'message', message };
}

/** What an assistant turn carries (Rho.Session's `assistant`). */
export interface AssistantReply {
  text?: string;
  thinking?: string;
  thinkingSignature?: string;
  toolCalls?: { id: string; name: string; arguments: Record<string, unknown> }[];
  usage?: SdkUsage | null;
  stopReason: 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';
  error?: string;
  /** Pictures the model made (omp's extension): kept for the chat, never sent back. */
  images?: Picture[];
  /** The model as a req_llm spec ("anthropic:claude-…"); or give pi's `provider` and `model`. */
  spec?: string;
  provider?: string;
  model?: string;
  /** pi's api name, e.g. "anthropic-messages" (pi/omp treat a turn without the right api as cross-model). */
  api?: string;
}

/** An assistant message: content thinking, text, images, tool calls (that order); usage as pi's. */
export function assistant(reply: AssistantReply): EntryBody {
  const content: Record<string, unknown>[] = [];
  if (reply.thinking) {
    content.push(
      reply.thinkingSignature
        ? { type: 'thinking', thinking: reply.thinking, thinkingSignature: reply.thinkingSignature }
        : { type: 'thinking', thinking: reply.thinking },
    );
  }
  if (reply.text) content.push({ type: 'text', text: reply.text });
  for (const image of reply.images ?? []) content.push(imagePart(image));
  for (const call of reply.toolCalls ?? []) content.push({ type: 'toolCall', id: call.id, name: call.name, arguments: call.arguments });
  let provider = reply.provider;
  let modelId = reply.model;
  if (reply.spec !== undefined) {
    const pi = toPi(reply.spec);
    const slash = pi.indexOf('/');
    provider = slash < 0 ? pi : pi.slice(0, slash);
    modelId = slash < 0 ? '' : pi.slice(slash + 1);
  }
  const message: Record<string, unknown> = {
    role: 'assistant',
    content,
    api: reply.api,
    provider: provider ?? '',
    model: modelId ?? '',
    usage: piUsage(reply.usage),
    stopReason: reply.stopReason,
  };
  if (reply.error !== undefined) message.errorMessage = reply.error;
  return { type: 'message', message };
}

/** A tool's result: the text, then images (sent to the model); `details` is stored, never sent. */
export function toolResult(callId: string, name: string, text: string, opts: { images?: Picture[]; details?: unknown; isError?: boolean } = {}): EntryBody {
  const content = [{ type: 'text', text }, ...(opts.images ?? []).map(imagePart)];
  const message: Record<string, unknown> = { role: 'toolResult', toolCallId: callId, toolName: name, content };
  if (opts.details !== undefined && opts.details !== null) message.details = opts.details;
  message.isError = opts.isError ?? false;
  return { type: 'message', message };
}

/** A loop notice: a `custom_message` with customType "<namespace>.<kind>" (namespace default "rho"). */
export function custom(kind: 'notice' | 'error' | 'aside', text: string, opts: { namespace?: string; display?: boolean; details?: unknown } = {}): EntryBody {
  const body: EntryBody = { type: 'custom_message', customType: `${opts.namespace ?? 'rho'}.${kind}`, content: text, display: opts.display ?? true };
  if (opts.details !== undefined) body.details = opts.details;
  return body;
}

/** A compaction as pi's local summarizer writes it, with omp's `tokensAfter`, `method: "soft"`, `fromExtension: false`. */
export function compaction(summary: string, firstKeptId: string, tokensBefore: number, tokensAfter: number): EntryBody {
  return { type: 'compaction', summary, firstKeptEntryId: firstKeptId, tokensBefore, tokensAfter, method: 'soft', fromExtension: false };
}

/** A model switch to a req_llm spec, written with omp's `model` and pi's `provider` + `modelId` (§0.4.2). */
export function modelChange(spec: string): EntryBody {
  const pi = toPi(spec);
  const slash = pi.indexOf('/');
  const provider = slash < 0 ? pi : pi.slice(0, slash);
  const modelId = slash < 0 ? '' : pi.slice(slash + 1);
  return { type: 'model_change', model: pi, provider, modelId };
}
