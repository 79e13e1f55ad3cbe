// Reading entries and messages: their text, thinking, tool calls, typed text, attachments, notice kind.
// Each accepts a message, a `message`/`custom_message` entry, or a content value.
import type { Entry } from '../schema/types.ts';

/** A file that went with a user message (Rho's `attachments` field, §0.4.4). */
export interface Attachment {
  kind: 'image' | 'text' | 'pdf' | 'file' | (string & {});
  name: string;
  path: string;
  mimeType: string;
  about: string;
  [k: string]: unknown;
}

/** A tool call as `toolCalls` returns it. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

type Part = { type?: unknown; [k: string]: unknown };

// The message inside an entry, or the value itself when it already is a message.
function messageOf(x: unknown): Record<string, unknown> | null {
  if (!x || typeof x !== 'object') return null;
  const o = x as Record<string, unknown>;
  if (o.type === 'message' && o.message && typeof o.message === 'object') return o.message as Record<string, unknown>;
  return o;
}

/** The content of a message or entry as an array of parts (a string becomes one text part). */
export function parts(x: unknown): Part[] {
  const content = typeof x === 'string' || Array.isArray(x) ? x : messageOf(x)?.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter((p): p is Part => !!p && typeof p === 'object') : [];
}

const textOf = (ps: Part[]) => ps.filter((p) => p.type === 'text' && typeof p.text === 'string').map((p) => p.text as string);

/** The text of a message's content (string or parts; text parts only, joined with "\n"). */
export function text(x: unknown): string {
  return textOf(parts(x)).join('\n');
}

/** Readable thinking of an assistant message (redacted thinking has none), joined with "\n". */
export function thinking(x: unknown): string {
  return parts(x)
    .filter((p) => p.type === 'thinking' && p.redacted !== true && typeof p.thinking === 'string')
    .map((p) => p.thinking as string)
    .join('\n');
}

/** Tool calls of an assistant message: `[{id, name, arguments}]`. */
export function toolCalls(x: unknown): ToolCall[] {
  return parts(x)
    .filter((p) => p.type === 'toolCall')
    .map((p) => ({ id: String(p.id ?? ''), name: String(p.name ?? ''), arguments: (p.arguments ?? {}) as Record<string, unknown> }));
}

/** A user message's attachments (Rho's field; `[]` when none). */
export function attachments(x: unknown): Attachment[] {
  const list = messageOf(x)?.attachments;
  return Array.isArray(list) ? (list.filter((a) => a && typeof a === 'object') as Attachment[]) : [];
}

/** Whether a text part is an attachment envelope as `user` writes it. */
export function isEnvelope(s: string): boolean {
  return s.startsWith('<attachment ') && s.endsWith('</attachment>');
}

/**
 * What the user typed: the message's text without its attachment envelopes. The envelopes are the
 * last text parts starting with `<attachment`, one per attachment — counted, not found by position,
 * since empty typed text is not written.
 */
export function typed(x: unknown): string {
  const texts = textOf(parts(x));
  let envelopes = attachments(x).length;
  let end = texts.length;
  while (envelopes > 0 && end > 0 && isEnvelope(texts[end - 1])) {
    end--;
    envelopes--;
  }
  return texts.slice(0, end).join('\n');
}

const NOTICE_KINDS = ['notice', 'error', 'aside'] as const;
/** A loop notice's kind, as `custom` writes it. */
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * The kind of a loop notice (`custom_message` entry or `custom` message): the part of `customType`
 * after its last "." when it is notice, error or aside, whatever the namespace; otherwise null.
 */
export function noticeKind(x: Entry | Record<string, unknown>): NoticeKind | null {
  const o = x as Record<string, unknown>;
  const carrier = o.type === 'custom_message' || o.role === 'custom' ? o : o.type === 'message' ? messageOf(o) : null;
  const customType = carrier && (carrier.role === undefined || carrier.role === 'custom') ? carrier.customType : undefined;
  if (typeof customType !== 'string') return null;
  const dot = customType.lastIndexOf('.');
  if (dot < 0) return null;
  const kind = customType.slice(dot + 1);
  return (NOTICE_KINDS as readonly string[]).includes(kind) ? (kind as NoticeKind) : null;
}
