// The Vercel AI SDK's `ModelMessage` shape (ai 6, @ai-sdk/provider-utils), restated here because
// the core may import only zod. Only the parts our context builder produces are listed; tests
// check every output against the `ai` package's own `modelMessageSchema`.

/** Provider-specific options: provider name → JSON object. */
export type ProviderOptions = Record<string, Record<string, unknown>>;

/** `{type:"text"}` part. */
export interface TextPart {
  type: 'text';
  text: string;
  providerOptions?: ProviderOptions;
}
/** `{type:"image"}` part: base64 (no `data:` prefix) or bytes. */
export interface ImagePart {
  type: 'image';
  image: string | Uint8Array;
  mediaType?: string;
  providerOptions?: ProviderOptions;
}
/** `{type:"file"}` part (PDF attachments). */
export interface FilePart {
  type: 'file';
  data: string | Uint8Array;
  mediaType: string;
  filename?: string;
  providerOptions?: ProviderOptions;
}
/** `{type:"reasoning"}` part (a thinking block). */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  providerOptions?: ProviderOptions;
}
/** `{type:"tool-call"}` part. */
export interface ToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: unknown;
  providerOptions?: ProviderOptions;
}
/** Tool output: text, error text, or content with text and images. */
export type ToolResultOutput =
  | { type: 'text'; value: string }
  | { type: 'error-text'; value: string }
  | { type: 'content'; value: Array<{ type: 'text'; text: string } | { type: 'image-data'; data: string; mediaType: string }> };
/** `{type:"tool-result"}` part. */
export interface ToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: ToolResultOutput;
  providerOptions?: ProviderOptions;
}

/** A user message. */
export interface UserModelMessage {
  role: 'user';
  content: string | Array<TextPart | ImagePart | FilePart>;
  providerOptions?: ProviderOptions;
}
/** An assistant message. */
export interface AssistantModelMessage {
  role: 'assistant';
  content: string | Array<TextPart | FilePart | ReasoningPart | ToolCallPart>;
  providerOptions?: ProviderOptions;
}
/** A tool message (results of tool calls). */
export interface ToolModelMessage {
  role: 'tool';
  content: ToolResultPart[];
  providerOptions?: ProviderOptions;
}
/** A system message (never produced by `context`; listed for completeness). */
export interface SystemModelMessage {
  role: 'system';
  content: string;
  providerOptions?: ProviderOptions;
}
/** Any provider-neutral message. */
export type ModelMessage = SystemModelMessage | UserModelMessage | AssistantModelMessage | ToolModelMessage;
