// zod schemas of the AgentMessage shapes inside `message` entries (§3): content parts and every
// role pi and omp store. All objects are loose, so unknown fields pass through untouched.
import { z } from 'zod';

/** Text part `{type:"text", text}` (§3.1). */
export const TextContentSchema = z.looseObject({ type: z.literal('text'), text: z.string(), textSignature: z.string().optional() });
/** Thinking part; pi marks a redacted one with `redacted: true` (§3.1). */
export const ThinkingContentSchema = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  thinkingSignature: z.string().optional(),
  redacted: z.boolean().optional(),
});
/** omp's redacted thinking part (§3.1). */
export const RedactedThinkingContentSchema = z.looseObject({ type: z.literal('redactedThinking'), data: z.string() });
/** Tool call part `{type:"toolCall", id, name, arguments}` (§3.1). */
export const ToolCallContentSchema = z.looseObject({
  type: z.literal('toolCall'),
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});
/** Image part: base64 without a `data:` prefix, or an omp `blob:sha256:` ref (§3.1, §3.9). */
export const ImageContentSchema = z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string() });
/** omp's model-fallback marker part of an assistant message (§3.1). */
export const FallbackContentSchema = z.looseObject({ type: z.literal('fallback') });
/** omp's Anthropic server-tool block (§3.1). */
export const AnthropicServerToolContentSchema = z.looseObject({ type: z.literal('anthropicServerTool') });

const KNOWN_PARTS = ['text', 'thinking', 'redactedThinking', 'toolCall', 'image', 'fallback', 'anthropicServerTool'];
/** A part of a type neither tool knows: kept, only its `type` is checked. */
export const UnknownContentSchema = z.looseObject({ type: z.string().refine((t) => !KNOWN_PARTS.includes(t)) });

/**
 * User, tool-result and custom content parts: text or image; a part of a type neither tool knows
 * is kept and passes (shown as unknown, sent to no model), as in assistant content.
 */
export const TextOrImageSchema = z.union([z.discriminatedUnion('type', [TextContentSchema, ImageContentSchema]), UnknownContentSchema]);
/** Assistant content parts (pi's plus omp's extensions; unknown part types are kept). */
export const AssistantContentSchema = z.union([
  z.discriminatedUnion('type', [
    TextContentSchema,
    ThinkingContentSchema,
    RedactedThinkingContentSchema,
    ToolCallContentSchema,
    ImageContentSchema,
    FallbackContentSchema,
    AnthropicServerToolContentSchema,
  ]),
  UnknownContentSchema,
]);

/** Per-bucket cost in US dollars (§3.4). */
export const CostSchema = z.looseObject({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  total: z.number(),
});
/** pi's Usage (§3.4); `totalTokens` is absent in old v1 files. */
export const UsageSchema = z.looseObject({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  totalTokens: z.number().optional(),
  cost: CostSchema.optional(),
});

const userContent = z.union([z.string(), z.array(TextOrImageSchema)]);
const ms = z.number().optional();

/** `{role:"user"}` (§3.2), with omp's `steering`/`synthetic` and Rho's `attachments`. */
export const UserMessageSchema = z.looseObject({
  role: z.literal('user'),
  content: userContent,
  timestamp: ms,
  steering: z.boolean().optional(),
  synthetic: z.boolean().optional(),
  attachments: z.array(z.looseObject({ kind: z.string(), name: z.string(), path: z.string(), mimeType: z.string(), about: z.string() })).optional(),
});
/** `{role:"assistant"}` (§3.3). */
export const AssistantMessageSchema = z.looseObject({
  role: z.literal('assistant'),
  content: z.array(AssistantContentSchema),
  api: z.string().optional(),
  provider: z.string(),
  model: z.string(),
  usage: UsageSchema.optional(),
  stopReason: z.enum(['stop', 'length', 'toolUse', 'error', 'aborted']),
  errorMessage: z.string().optional(),
  timestamp: ms,
  retryRecovery: z.looseObject({ status: z.string() }).optional(),
});
/** `{role:"toolResult"}` (§3.5); `details` is host data, never sent. */
export const ToolResultMessageSchema = z.looseObject({
  role: z.literal('toolResult'),
  toolCallId: z.string(),
  toolName: z.string(),
  content: z.array(TextOrImageSchema),
  details: z.unknown().optional(),
  isError: z.boolean(),
  timestamp: ms,
});
/** `{role:"bashExecution"}`, a user `!cmd` (§3.6). */
export const BashExecutionMessageSchema = z.looseObject({
  role: z.literal('bashExecution'),
  command: z.string(),
  output: z.string(),
  exitCode: z.number().nullable().optional(),
  cancelled: z.boolean(),
  truncated: z.boolean(),
  fullOutputPath: z.string().optional(),
  excludeFromContext: z.boolean().optional(),
  timestamp: ms,
});
/** omp's `{role:"pythonExecution"}` (§3.6). */
export const PythonExecutionMessageSchema = z.looseObject({
  role: z.literal('pythonExecution'),
  code: z.string(),
  output: z.string(),
  exitCode: z.number().nullable().optional(),
  cancelled: z.boolean(),
  truncated: z.boolean(),
  timestamp: ms,
});
/** `{role:"custom"}` (formerly `hookMessage`, §3.7). */
export const CustomMessageSchema = z.looseObject({
  role: z.literal('custom'),
  customType: z.string(),
  content: userContent,
  display: z.boolean(),
  details: z.unknown().optional(),
  timestamp: ms,
});
/** The legacy role omp still accepts in v3 files (§3.7). */
export const HookMessageSchema = CustomMessageSchema.extend({ role: z.literal('hookMessage') });
/** omp's `{role:"developer"}` (§3.8). */
export const DeveloperMessageSchema = z.looseObject({ role: z.literal('developer'), content: userContent, timestamp: ms });
/** omp's `{role:"fileMention"}` (§3.8). */
export const FileMentionMessageSchema = z.looseObject({
  role: z.literal('fileMention'),
  // omp always writes `content` (a note when it skipped the file: too large, binary); it is display
  // only (no context takes fileMention), so a file without it is not a problem.
  files: z.array(z.looseObject({ path: z.string(), content: z.string().optional() })),
  timestamp: ms,
});
/** Runtime-only `{role:"compactionSummary"}` (§3.8). */
export const CompactionSummaryMessageSchema = z.looseObject({
  role: z.literal('compactionSummary'),
  summary: z.string(),
  tokensBefore: z.number(),
  timestamp: ms,
});
/** Runtime-only `{role:"branchSummary"}` (§3.8). */
export const BranchSummaryMessageSchema = z.looseObject({ role: z.literal('branchSummary'), summary: z.string(), fromId: z.string(), timestamp: ms });

const KNOWN_ROLES = [
  'user',
  'assistant',
  'toolResult',
  'bashExecution',
  'pythonExecution',
  'custom',
  'hookMessage',
  'developer',
  'fileMention',
  'compactionSummary',
  'branchSummary',
];
/** A message of a role neither tool knows: kept, only `role` is checked. */
export const UnknownMessageSchema = z.looseObject({ role: z.string().refine((r) => !KNOWN_ROLES.includes(r)) });

/** Any AgentMessage (dispatched on `role`; unknown roles pass). */
export const MessageSchema = z.union([
  z.discriminatedUnion('role', [
    UserMessageSchema,
    AssistantMessageSchema,
    ToolResultMessageSchema,
    BashExecutionMessageSchema,
    PythonExecutionMessageSchema,
    CustomMessageSchema,
    HookMessageSchema,
    DeveloperMessageSchema,
    FileMentionMessageSchema,
    CompactionSummaryMessageSchema,
    BranchSummaryMessageSchema,
  ]),
  UnknownMessageSchema,
]);

/** A text part (inferred shapes below take the bare name, STYLE 6). */
export type TextContent = z.infer<typeof TextContentSchema>;
/** A thinking part. */
export type ThinkingContent = z.infer<typeof ThinkingContentSchema>;
/** A tool call part. */
export type ToolCallContent = z.infer<typeof ToolCallContentSchema>;
/** An image part. */
export type ImageContent = z.infer<typeof ImageContentSchema>;
/** pi's token usage and cost. */
export type Usage = z.infer<typeof UsageSchema>;
/** A user message. */
export type UserMessage = z.infer<typeof UserMessageSchema>;
/** An assistant message. */
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
/** A tool result message. */
export type ToolResultMessage = z.infer<typeof ToolResultMessageSchema>;
/** A user `!cmd` run. */
export type BashExecutionMessage = z.infer<typeof BashExecutionMessageSchema>;
/** A custom (extension/host) message. */
export type CustomMessage = z.infer<typeof CustomMessageSchema>;
