// A hand-written pre-check for the entries that make up almost every file (user, assistant,
// tool-result and bash messages, thinking-level and model changes, compactions, summaries, labels,
// extension entries). It says "valid" only when the zod schema
// surely agrees (it is never looser; a test checks that on fixtures and on random mutations); any
// doubt goes to zod, which decides and explains. It exists because zod spends tens of µs per
// message, which made validation cost more than JSON.parse itself.

type O = Record<string, unknown>;

const isObj = (x: unknown): x is O => typeof x === 'object' && x !== null && !Array.isArray(x);
const isStr = (x: unknown) => typeof x === 'string';
const isNum = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
const optStr = (x: unknown) => x === undefined || typeof x === 'string';
const optNum = (x: unknown) => x === undefined || isNum(x);
const optBool = (x: unknown) => x === undefined || typeof x === 'boolean';

function isEnvelope(e: O): boolean {
  return isStr(e.id) && (e.parentId === null || isStr(e.parentId)) && isStr(e.timestamp);
}

function isTextOrImage(p: unknown): boolean {
  if (!isObj(p)) return false;
  if (p.type === 'text') return isStr(p.text) && optStr(p.textSignature);
  if (p.type === 'image') return isStr(p.data) && isStr(p.mimeType);
  return false;
}

function isTextOrImageList(x: unknown): boolean {
  if (!Array.isArray(x)) return false;
  // Indexed loops: the check runs once a line, often before V8 optimizes it, and an iterator then costs an object a step.
  for (let i = 0; i < x.length; i++) if (!isTextOrImage(x[i])) return false;
  return true;
}

function isAssistantPart(p: unknown): boolean {
  if (!isObj(p)) return false;
  switch (p.type) {
    case 'text':
      return isStr(p.text) && optStr(p.textSignature);
    case 'thinking':
      return isStr(p.thinking) && optStr(p.thinkingSignature) && optBool(p.redacted);
    case 'toolCall':
      return isStr(p.id) && isStr(p.name) && isObj(p.arguments) && Object.getPrototypeOf(p.arguments) === Object.prototype;
    default:
      return false;
  }
}

function isCost(c: unknown): boolean {
  return isObj(c) && isNum(c.input) && isNum(c.output) && isNum(c.cacheRead) && isNum(c.cacheWrite) && isNum(c.total);
}

function isUsage(u: unknown): boolean {
  return (
    isObj(u) &&
    isNum(u.input) &&
    isNum(u.output) &&
    isNum(u.cacheRead) &&
    isNum(u.cacheWrite) &&
    optNum(u.totalTokens) &&
    (u.cost === undefined || isCost(u.cost))
  );
}

const STOP_REASONS = new Set(['stop', 'length', 'toolUse', 'error', 'aborted']);

function isMessage(m: unknown): boolean {
  if (!isObj(m) || !optNum(m.timestamp)) return false;
  switch (m.role) {
    case 'user':
      return (isStr(m.content) || isTextOrImageList(m.content)) && optBool(m.steering) && optBool(m.synthetic) && m.attachments === undefined;
    case 'assistant': {
      if (!Array.isArray(m.content)) return false;
      for (let i = 0; i < m.content.length; i++) if (!isAssistantPart(m.content[i])) return false;
      return (
        optStr(m.api) &&
        isStr(m.provider) &&
        isStr(m.model) &&
        (m.usage === undefined || isUsage(m.usage)) &&
        STOP_REASONS.has(m.stopReason as string) &&
        optStr(m.errorMessage) &&
        m.retryRecovery === undefined
      );
    }
    case 'toolResult':
      return isStr(m.toolCallId) && isStr(m.toolName) && isTextOrImageList(m.content) && typeof m.isError === 'boolean';
    case 'bashExecution':
      return (
        isStr(m.command) &&
        isStr(m.output) &&
        (m.exitCode === undefined || m.exitCode === null || isNum(m.exitCode)) &&
        typeof m.cancelled === 'boolean' &&
        typeof m.truncated === 'boolean' &&
        optStr(m.fullOutputPath) &&
        optBool(m.excludeFromContext)
      );
    default:
      return false;
  }
}

/** True only when the entry surely passes its zod schema; false means "ask zod". */
export function isSurelyValid(entry: unknown): boolean {
  if (!isObj(entry) || !isEnvelope(entry)) return false;
  switch (entry.type) {
    case 'message':
      return isMessage(entry.message);
    case 'thinking_level_change':
      return (
        (entry.thinkingLevel === undefined || entry.thinkingLevel === null || isStr(entry.thinkingLevel)) &&
        (entry.configured === undefined || entry.configured === null || isStr(entry.configured))
      );
    case 'model_change':
      return optStr(entry.provider) && optStr(entry.modelId) && optStr(entry.model) && optStr(entry.role) && optBool(entry.resolvedModelIsFallback);
    case 'compaction':
      return (
        isStr(entry.summary) &&
        isStr(entry.firstKeptEntryId) &&
        isNum(entry.tokensBefore) &&
        optBool(entry.fromHook) &&
        optBool(entry.fromExtension) &&
        optStr(entry.shortSummary) &&
        optNum(entry.tokensAfter) &&
        optStr(entry.method)
      );
    case 'branch_summary':
      return isStr(entry.fromId) && isStr(entry.summary) && optBool(entry.fromHook) && optBool(entry.fromExtension);
    case 'custom':
      return isStr(entry.customType);
    case 'custom_message':
      return (
        isStr(entry.customType) &&
        (isStr(entry.content) || isTextOrImageList(entry.content)) &&
        typeof entry.display === 'boolean' &&
        (entry.attribution === undefined || entry.attribution === 'user' || entry.attribution === 'agent')
      );
    case 'label':
      return isStr(entry.targetId) && optStr(entry.label);
    case 'session_info':
      return optStr(entry.name);
    default:
      return false;
  }
}
