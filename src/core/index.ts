// The core's public API (notes/core-api.md): pure functions over strings, bytes and plain data.
// Names follow session-format.md and rho-session-module.txt (camelCase).
export type * from './types.ts';
export type * from './model-message.ts';

// reading
export { parse, parseChunks, sessionParser, read, serialize, isHeader, versionOf, checkEnvelope, headerProblems, type SessionParser } from './parse.ts';
export { readHeader } from './header.ts';
export { CURRENT_SESSION_VERSION, v1Id, migrate, migrateV1Entry, migrateV2Entry } from './migrate.ts';
export { isTitleSlot } from './title-slot.ts';

// tree
export {
  branch,
  walkBranch,
  walkIndices,
  children,
  leaves,
  leafOf,
  withLeaf,
  checkTree,
  hasParent,
  childPositions,
  leafPositions,
  leafFrom,
  sessionTree,
} from './tree.ts';
export type { TreeLike, TreeNodes, TreeCheck, PositionTree } from './tree.ts';

// context
export { compacted, context, compactionSummaryText, summarizedAttachmentLines } from './context.ts';
export type { Compacted } from './context.ts';
export {
  messages,
  isSentAssistant,
  bashExecutionToText,
  ABORTED_TOOL_TEXT,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  IMAGE_OMITTED,
  TOOL_IMAGE_OMITTED,
  MADE_A_PICTURE,
  DEFAULT_MAX_PDF_BYTES,
} from './messages.ts';
export type { ContextOptions } from './messages.ts';

// writing
export { user, assistant, toolResult, custom, compaction, modelChange, attachmentEnvelope, escapeAttribute } from './builders.ts';
export type { AttachmentInput, AssistantReply, EntryBody, Picture } from './builders.ts';
export { newSession, openSession, append, uuidv7From } from './write.ts';
export type { Session, WriteDeps } from './write.ts';
export { CoreError } from './errors.ts';
export type { CoreErrorCode } from './errors.ts';
export { toBase64 } from './base64.ts';

// reading entries
export { text, thinking, toolCalls, typed, attachments, noticeKind, parts, isEnvelope } from './readers.ts';
export type { Attachment, ToolCall, NoticeKind } from './readers.ts';
export { agentMark, addAgentMark, agentLabel, isAgent, isForeignAgent, AGENTS, type Agent } from './agent.ts';
export { resumeCommands, piResumeCommand, ompResumeCommand, piSessionDir, type ResumeTarget, type ResumeCommand } from './resume.ts';
export { usage, usageTotal, addUsage, totals, ZERO_TOTALS } from './usage.ts';
export type { SdkUsage, Totals, CostInput } from './usage.ts';
export * from './library-usage/index.ts';
export { fromPi, toPi, model, modelChangeSpec, stripSelector } from './model-spec.ts';
export { displayTitle, titleFromText } from './title.ts';
export type { Titled } from './title.ts';

// fast envelope index
export { indexEnvelopes, bodyOf, bodiesOf, branchOfIndex, walkIndexBranch, childrenOfIndex, leavesOfIndex, leafOfIndex, indexTree } from './envelopes.ts';
export type { EnvelopeIndex } from './envelopes.ts';
export { tailScreen } from './envelope-tail.ts';
export type { TailScreen } from './envelope-tail.ts';
export { scanEnvelope } from './envelope-scan.ts';
export type { ScannedEnvelope } from './envelope-scan.ts';

// schemas
export * from './schemas.ts';

// subagent transcripts beside their parent
export { subagentPlace, subagentPath, parentIdFromStem, findSubagentStart } from './subagents.ts';
export type { SubagentPlace, SubagentLink } from './subagents.ts';

// what the library keeps of a session, from the same line pass as `parse`
export { createDigester, digestSession, digestConversion } from './read/digest.ts';
export type { SessionDigest, SessionDigester, SessionScan, SlimTree, SummaryTotals, DigestOptions } from './read/digest.ts';
export { linePass } from './read/line-pass.ts';
export type { LinePass, LinePassOptions, LinePassResult } from './read/line-pass.ts';
