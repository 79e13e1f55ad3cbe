// The core's public API (docs/core-api.md): pure functions over strings, bytes and plain data.
// Names follow docs/session-format.md and the rho host's Rho.Session module (camelCase).
export type * from './schema/types.ts';
export type * from './tree/model-message.ts';

// reading
export { parse, parseChunks, sessionParser, read, serialize, isHeader, versionOf, checkEnvelope, headerProblems, type SessionParser } from './read/parse.ts';
export { readHeader } from './read/header.ts';
export { concatBytes } from './read/record-stream.ts';
export { CURRENT_SESSION_VERSION, v1Id, migrate, migrateV1Entry, migrateV2Entry } from './read/migrate.ts';
export { isTitleSlot } from './read/title-slot.ts';

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
  arrayNodes,
  hasParent,
  childPositions,
  leafPositions,
  leafFrom,
  sessionTree,
} from './tree/tree.ts';
export type { TreeLike, TreeNodes, TreeCheck, PositionTree } from './tree/tree.ts';

// context
export { compacted, context, compactionSummaryText, summarizedAttachmentLines } from './tree/context.ts';
export type { Compacted } from './tree/context.ts';
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
} from './tree/messages.ts';
export type { ContextOptions } from './tree/messages.ts';

// writing
export { user, assistant, toolResult, custom, compaction, modelChange, attachmentEnvelope, escapeAttribute } from './write/builders.ts';
export type { AttachmentInput, AssistantReply, EntryBody, Picture } from './write/builders.ts';
export { newSession, openSession, append, uuidv7From } from './write/write.ts';
export type { Session, WriteDeps } from './write/write.ts';
export { CoreError } from './write/errors.ts';
export type { CoreErrorCode } from './write/errors.ts';
export { toBase64 } from './write/base64.ts';

// reading entries
export { text, thinking, toolCalls, typed, attachments, noticeKind, parts, isEnvelope } from './tree/readers.ts';
export type { Attachment, ToolCall, NoticeKind } from './tree/readers.ts';
export { agentMark, addAgentMark, agentLabel, isAgent, isForeignAgent, AGENTS, type Agent } from './write/agent.ts';
export { resumeCommands, piResumeCommand, ompResumeCommand, piSessionDir, type ResumeTarget, type ResumeCommand } from './write/resume.ts';
export { usage, usageTotal, addUsage, totals, ZERO_TOTALS } from './tree/usage.ts';
export type { SdkUsage, Totals, CostInput } from './tree/usage.ts';
export * from './library-usage/index.ts';
export { fromPi, toPi, model, modelChangeSpec, stripSelector } from './write/model-spec.ts';
export { displayTitle, titleFromText } from './tree/title.ts';
export { createSessionDate, datesSession, recordTime, type SessionDateState } from './tree/session-date.ts';
export type { Titled } from './tree/title.ts';

// fast envelope index
export {
  indexEnvelopes,
  bodyOf,
  bodiesOf,
  branchOfIndex,
  walkIndexBranch,
  childrenOfIndex,
  leavesOfIndex,
  leafOfIndex,
  indexTree,
} from './envelope/envelopes.ts';
export type { EnvelopeIndex } from './envelope/envelopes.ts';
export { tailScreen } from './envelope/envelope-tail.ts';
export type { TailScreen } from './envelope/envelope-tail.ts';
export { scanEnvelope } from './envelope/envelope-scan.ts';
export type { ScannedEnvelope } from './envelope/envelope-scan.ts';

// schemas
export * from './schema/schemas.ts';

// subagent transcripts beside their parent
export { subagentPlace, subagentPath, parentIdFromStem, findSubagentStart, forkedFrom } from './tree/subagents.ts';
export type { SubagentPlace, SubagentLink } from './tree/subagents.ts';

// what the library keeps of a session, from the same line pass as `parse`
export { createDigester, digestHeld, digestSession, digestConversion } from './read/digest.ts';
export { createHeldDigest, type HeldDigest } from './read/held-digest.ts';
export type { HeldTree, SessionDigest, SessionDigester, SessionScan, SlimTree, SummaryTotals, DigestOptions } from './read/digest.ts';
export { linePass } from './read/line-pass.ts';
export type { LinePass, LinePassOptions, LinePassResult } from './read/line-pass.ts';
