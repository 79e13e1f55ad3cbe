// Entries → AI SDK ModelMessages (§0.3 rules 2–8): `messages(entries, opts)` applies no compaction.
import type {
  AssistantModelMessage,
  FilePart,
  ImagePart,
  ModelMessage,
  ProviderOptions,
  TextPart,
  ToolModelMessage,
  ToolResultOutput,
  UserModelMessage,
} from './model-message.ts';
import { attachments, parts, type Attachment } from './readers.ts';
import type { Entry } from '../schema/types.ts';

/** What the model takes and how to reach files and blobs (§0.3.6–7). */
export interface ContextOptions {
  /** Input kinds the model accepts (default `["text", "image"]`). */
  inputs?: ('text' | 'image' | 'pdf')[];
  /** Bytes of an attachment at `path`, or null when it cannot be read (needed for PDFs). */
  readAttachment?: (path: string) => Uint8Array | null;
  /** Budget for PDF attachments, newest first (default 32 MiB). */
  maxPdfBytes?: number;
  /** Base64 of an omp `blob:sha256:…` image ref, or null when unknown. */
  resolveBlob?: (ref: string) => string | null;
}

/** The text a tool call that never got a result is answered with (omp's pi-ai text for this case). */
export const ABORTED_TOOL_TEXT = 'aborted';
/** pi's compaction summary wrapper (§4.5). */
export const COMPACTION_SUMMARY_PREFIX = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
/** Closes pi's compaction summary. */
export const COMPACTION_SUMMARY_SUFFIX = '\n</summary>';
/** pi's branch summary wrapper (§4.5; no newline before the suffix). */
export const BRANCH_SUMMARY_PREFIX = 'The following is a summary of a branch that this conversation came back from:\n\n<summary>\n';
/** Closes pi's branch summary. */
export const BRANCH_SUMMARY_SUFFIX = '</summary>';
/** pi's note for a user image the model cannot take (§4.2). */
export const IMAGE_OMITTED = '(image omitted: model does not support images)';
/** pi's note for a tool-result image the model cannot take. */
export const TOOL_IMAGE_OMITTED = '(tool image omitted: model does not support images)';
/** What an assistant turn that only made pictures is sent as. */
export const MADE_A_PICTURE = '(made a picture)';
/** Default PDF budget: 32 MiB. */
export const DEFAULT_MAX_PDF_BYTES = 32 * 1024 * 1024;

type Part = Record<string, unknown>;
type Msg = Record<string, unknown>;

/** pi's `bashExecutionToText`, verbatim in behaviour. */
export function bashExecutionToText(m: Msg): string {
  let out = 'Ran `' + String(m.command) + '`\n';
  out += m.output ? '```\n' + String(m.output) + '\n```' : '(no output)';
  if (m.cancelled) out += '\n\n(command cancelled)';
  else if (m.exitCode !== null && m.exitCode !== undefined && m.exitCode !== 0) out += `\n\nCommand exited with code ${m.exitCode}`;
  if (m.truncated && m.fullOutputPath) out += `\n\n[Output truncated. Full output: ${m.fullOutputPath}]`;
  return out;
}

const isImage = (p: Part) => p.type === 'image' && typeof p.data === 'string';
const isBlobRef = (data: string) => data.startsWith('blob:sha256:');

// Base64 of an image the model may receive, or null (model takes no images, or an unresolved blob).
function sendableImage(p: Part, opts: ContextOptions, takesImages: boolean): string | null {
  if (!takesImages) return null;
  const data = p.data as string;
  if (!isBlobRef(data)) return data;
  return opts.resolveBlob?.(data) ?? null;
}

// Text and image parts with each run of unsendable images replaced by one note.
function mediaParts(
  content: Part[],
  opts: ContextOptions,
  takesImages: boolean,
  note: string,
): Array<TextPart | { type: 'image'; data: string; mediaType: string }> {
  const out: Array<TextPart | { type: 'image'; data: string; mediaType: string }> = [];
  let inRun = false;
  for (const p of content) {
    if (isImage(p)) {
      const data = sendableImage(p, opts, takesImages);
      if (data !== null) {
        out.push({ type: 'image', data, mediaType: String(p.mimeType ?? 'image/png') });
        inRun = false;
      } else if (!inRun) {
        out.push({ type: 'text', text: note });
        inRun = true;
      }
    } else if (p.type === 'text' && typeof p.text === 'string') {
      out.push({ type: 'text', text: p.text });
      inRun = false;
    }
  }
  return out;
}

function userMessage(content: Part[], opts: ContextOptions, takesImages: boolean, files: FilePart[] = []): UserModelMessage {
  const out: Array<TextPart | ImagePart | FilePart> = mediaParts(content, opts, takesImages, IMAGE_OMITTED).map((p) =>
    p.type === 'image' ? { type: 'image', image: p.data, mediaType: p.mediaType } : p,
  );
  return { role: 'user', content: [...out, ...files] };
}

// The provider options that carry a thinking signature back (pi keeps it in `thinkingSignature`).
function signatureOptions(signature: unknown, m: Msg): ProviderOptions | undefined {
  if (typeof signature !== 'string' || signature === '') return undefined;
  const options: ProviderOptions = { pi: { thinkingSignature: signature } };
  if (m.provider === 'anthropic' || String(m.api ?? '').startsWith('anthropic')) options.anthropic = { signature };
  return options;
}

/** Whether an assistant turn is sent at all (§0.3.3): it needs text, a tool call or an image, and no retryRecovery. */
export function isSentAssistant(m: Msg): boolean {
  if (m.retryRecovery !== undefined && m.retryRecovery !== null) return false;
  return parts(m).some((p) => (p.type === 'text' && typeof p.text === 'string' && p.text.trim() !== '') || p.type === 'toolCall' || isImage(p));
}

function assistantMessage(m: Msg): AssistantModelMessage {
  const content: AssistantModelMessage['content'] & unknown[] = [];
  let hasText = false;
  let hasCall = false;
  let hasImage = false;
  for (const p of parts(m)) {
    if (p.type === 'thinking' && p.redacted !== true && typeof p.thinking === 'string') {
      const providerOptions = signatureOptions(p.thinkingSignature, m);
      content.push(providerOptions ? { type: 'reasoning', text: p.thinking, providerOptions } : { type: 'reasoning', text: p.thinking });
    } else if (p.type === 'text' && typeof p.text === 'string') {
      hasText ||= p.text.trim() !== '';
      content.push({ type: 'text', text: p.text });
    } else if (p.type === 'toolCall') {
      hasCall = true;
      content.push({ type: 'tool-call', toolCallId: String(p.id), toolName: String(p.name), input: p.arguments ?? {} });
    } else if (isImage(p)) {
      hasImage = true;
    }
  }
  if (!hasText && !hasCall && hasImage) content.push({ type: 'text', text: MADE_A_PICTURE });
  return { role: 'assistant', content };
}

function toolMessage(m: Msg, opts: ContextOptions, takesImages: boolean): ToolModelMessage {
  const media = mediaParts(parts(m), opts, takesImages, TOOL_IMAGE_OMITTED);
  let output: ToolResultOutput;
  if (media.some((p) => p.type === 'image')) {
    output = {
      type: 'content',
      value: media.map((p) => (p.type === 'image' ? { type: 'image-data', data: p.data, mediaType: p.mediaType } : p)),
    };
  } else {
    const value = media.map((p) => (p as TextPart).text).join('\n');
    output = m.isError === true ? { type: 'error-text', value } : { type: 'text', value };
  }
  return { role: 'tool', content: [{ type: 'tool-result', toolCallId: String(m.toolCallId), toolName: String(m.toolName), output }] };
}

const isPdf = (a: Attachment) => a.mimeType === 'application/pdf' || a.kind === 'pdf';

// PDF bytes to send, newest first while the total stays within the budget (§0.3.6).
function pickPdfs(entries: readonly Entry[], opts: ContextOptions): Map<Attachment, Uint8Array> {
  const picked = new Map<Attachment, Uint8Array>();
  if (!opts.inputs?.includes('pdf') || !opts.readAttachment) return picked;
  const budget = opts.maxPdfBytes ?? DEFAULT_MAX_PDF_BYTES;
  let total = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const m = entries[i].message as Msg | undefined;
    if (entries[i].type !== 'message' || m?.role !== 'user') continue;
    const pdfs = attachments(m).filter(isPdf).reverse();
    for (const a of pdfs) {
      const bytes = opts.readAttachment(a.path);
      if (!bytes) continue;
      if (total + bytes.length > budget) return picked;
      total += bytes.length;
      picked.set(a, bytes);
    }
  }
  return picked;
}

// Answers every tool call left without a result before the next user/assistant message or the end (§0.3.4).
function answerDanglingCalls(out: ModelMessage[]): ModelMessage[] {
  const fixed: ModelMessage[] = [];
  let pending = new Map<string, string>();
  const flush = () => {
    if (pending.size === 0) return;
    fixed.push({
      role: 'tool',
      content: [...pending].map(([toolCallId, toolName]) => ({
        type: 'tool-result',
        toolCallId,
        toolName,
        output: { type: 'error-text', value: ABORTED_TOOL_TEXT },
      })),
    });
    pending = new Map();
  };
  for (const msg of out) {
    if (msg.role === 'tool') {
      for (const part of msg.content) pending.delete(part.toolCallId);
    } else {
      flush();
      if (msg.role === 'assistant' && Array.isArray(msg.content)) {
        for (const p of msg.content) if (p.type === 'tool-call') pending.set(p.toolCallId, p.toolName);
      }
    }
    fixed.push(msg);
  }
  flush();
  return fixed;
}

/**
 * The AI SDK messages for entries as given (no compaction applied; no system message). `message`
 * (user, assistant, toolResult, bashExecution, custom), `custom_message` and `branch_summary`
 * entries contribute; other types are ignored. Empty assistant turns and retryRecovery turns are
 * dropped; unanswered tool calls get an `ABORTED_TOOL_TEXT` error result.
 */
export function messages(entries: readonly Entry[], opts: ContextOptions = {}): ModelMessage[] {
  const takesImages = (opts.inputs ?? ['text', 'image']).includes('image');
  const pdfs = pickPdfs(entries, opts);
  const out: ModelMessage[] = [];
  for (const entry of entries) {
    if (entry.type === 'custom_message') {
      out.push(userMessage(parts(entry.content as unknown), opts, takesImages));
    } else if (entry.type === 'branch_summary') {
      if (entry.summary) out.push({ role: 'user', content: [{ type: 'text', text: BRANCH_SUMMARY_PREFIX + String(entry.summary) + BRANCH_SUMMARY_SUFFIX }] });
    } else if (entry.type === 'message' && entry.message && typeof entry.message === 'object') {
      const m = entry.message as Msg;
      if (m.role === 'user') {
        const files: FilePart[] = attachments(m)
          .filter((a) => pdfs.has(a))
          .map((a) => ({ type: 'file', data: pdfs.get(a) as Uint8Array, mediaType: 'application/pdf', filename: a.name }));
        out.push(userMessage(parts(m), opts, takesImages, files));
      } else if (m.role === 'assistant') {
        if (isSentAssistant(m)) out.push(assistantMessage(m));
      } else if (m.role === 'toolResult') {
        out.push(toolMessage(m, opts, takesImages));
      } else if (m.role === 'bashExecution') {
        if (!m.excludeFromContext) out.push({ role: 'user', content: [{ type: 'text', text: bashExecutionToText(m) }] });
      } else if (m.role === 'custom') {
        out.push(userMessage(parts(m), opts, takesImages));
      }
    }
  }
  return answerDanglingCalls(out);
}
