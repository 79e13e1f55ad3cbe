/**
 * Drives pi's own `SessionManager` through a list of operations (appends, branches, compactions,
 * tool calls, aborts, …) so that sessions are written by the real thing. Used by the fixture
 * generator (fixtures/pi/) and by the property-based differential tests (random op lists).
 *
 * Operations refer to earlier entries by number (`pick`), resolved modulo what exists at the time
 * of application, so any random list is applicable.
 */
import type { SessionManager } from '@mariozechner/pi-coding-agent';

/** One content part an op can ask for. */
export type PartSpec =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string; signature?: string; redacted?: boolean }
  | { kind: 'toolCall'; name: string; args: Record<string, unknown> }
  | { kind: 'image'; data: string; mimeType: string };

/** One step applied to a SessionManager. */
export type PiOp =
  | {
      op: 'user';
      text: string;
      images?: { data: string; mimeType: string }[];
      asString?: boolean;
      attachments?: { name: string; path: string; mimeType: string; about: string }[];
    }
  | {
      op: 'assistant';
      parts: PartSpec[];
      stopReason: 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';
      errorMessage?: string;
      retryRecovery?: 'recovered' | 'superseded';
      model?: number;
    }
  | { op: 'toolResults'; answer: number; text: string; images?: { data: string; mimeType: string }[]; isError: boolean; extraText?: string; orphan?: boolean }
  | { op: 'bash'; command: string; output: string; exitCode?: number; cancelled: boolean; truncated: boolean; fullOutputPath?: string; exclude?: boolean }
  | {
      op: 'customMessage';
      customType: string;
      content: string | { kind: 'text' | 'image'; text?: string; data?: string; mimeType?: string }[];
      display: boolean;
    }
  | { op: 'custom'; customType: string; data: unknown }
  | { op: 'compaction'; summary: string; pick: number; tokensBefore: number; unknownFirstKept?: boolean }
  | { op: 'branch'; pick: number }
  | { op: 'branchWithSummary'; pick: number | null; summary: string }
  | { op: 'resetLeaf' }
  | { op: 'modelChange'; model: number }
  | { op: 'thinkingLevel'; level: string }
  | { op: 'label'; pick: number; label?: string }
  | { op: 'sessionInfo'; name: string };

/** Models an op can switch to (pi names). */
export const PI_MODELS = [
  { api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5' },
  { api: 'openai-codex-responses', provider: 'openai-codex', model: 'gpt-5' },
  { api: 'google-generative-ai', provider: 'google', model: 'gemini-2.5-pro' },
] as const;

const ZERO_USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** Applies ops to a SessionManager; `clock` gives message timestamps (ms). Returns the manager. */
export function applyPiOps(sm: SessionManager, ops: PiOp[], clock: () => number): SessionManager {
  let pending: { id: string; name: string }[] = [];
  let callSeq = 0;
  let model = 0;
  const ids = (): string[] => sm.getEntries().map((e) => e.id);
  for (const o of ops) {
    switch (o.op) {
      case 'user': {
        const content: unknown[] = [{ type: 'text', text: o.text }];
        for (const a of o.attachments ?? []) {
          content.push({ type: 'text', text: `<attachment name="${a.name}" type="${a.mimeType}" path="${a.path}">\n${a.about}\n</attachment>` });
        }
        for (const img of o.images ?? []) content.push({ type: 'image', data: img.data, mimeType: img.mimeType });
        const msg: Record<string, unknown> = { role: 'user', content: o.asString && content.length === 1 ? o.text : content, timestamp: clock() };
        if (o.attachments?.length) msg.attachments = o.attachments.map((a) => ({ kind: 'image', ...a }));
        sm.appendMessage(msg as never);
        break;
      }
      case 'assistant': {
        if (o.model !== undefined) model = o.model % PI_MODELS.length;
        const m = PI_MODELS[model];
        const calls: { id: string; name: string }[] = [];
        const content = o.parts.map((p) => {
          if (p.kind === 'text') return { type: 'text', text: p.text };
          if (p.kind === 'image') return { type: 'image', data: p.data, mimeType: p.mimeType };
          if (p.kind === 'thinking') {
            const t: Record<string, unknown> = { type: 'thinking', thinking: p.text };
            if (p.signature !== undefined) t.thinkingSignature = p.signature;
            if (p.redacted) t.redacted = true;
            return t;
          }
          const id = `toolu_${(callSeq++).toString(36).padStart(6, '0')}`;
          calls.push({ id, name: p.name });
          return { type: 'toolCall', id, name: p.name, arguments: p.args };
        });
        const msg: Record<string, unknown> = {
          role: 'assistant',
          content,
          api: m.api,
          provider: m.provider,
          model: m.model,
          usage: { ...ZERO_USAGE, output: 10, totalTokens: 10 },
          stopReason: o.stopReason,
          timestamp: clock(),
        };
        if (o.errorMessage !== undefined) msg.errorMessage = o.errorMessage;
        if (o.retryRecovery === 'recovered')
          msg.retryRecovery = {
            kind: 'auto-retry',
            status: 'recovered',
            attempt: 1,
            recoveredAt: '2026-01-01T00:00:00.000Z',
            recovery: 'wait',
            note: 'rate-limited; waited; retried',
          };
        if (o.retryRecovery === 'superseded')
          msg.retryRecovery = { kind: 'auto-retry', status: 'superseded', attempt: 1, recovery: 'plain', note: 'error; retried' };
        sm.appendMessage(msg as never);
        pending = calls;
        break;
      }
      case 'toolResults': {
        let call: { id: string; name: string };
        if (o.orphan || pending.length === 0) call = { id: `toolu_orphan${callSeq++}`, name: 'read' };
        else call = pending.splice(o.answer % pending.length, 1)[0];
        const content: unknown[] = [{ type: 'text', text: o.text }];
        for (const img of o.images ?? []) content.push({ type: 'image', data: img.data, mimeType: img.mimeType });
        if (o.extraText !== undefined) content.push({ type: 'text', text: o.extraText });
        sm.appendMessage({
          role: 'toolResult',
          toolCallId: call.id,
          toolName: call.name,
          content,
          details: { lines: 3 },
          isError: o.isError,
          timestamp: clock(),
        } as never);
        break;
      }
      case 'bash': {
        const msg: Record<string, unknown> = {
          role: 'bashExecution',
          command: o.command,
          output: o.output,
          exitCode: o.exitCode,
          cancelled: o.cancelled,
          truncated: o.truncated,
          timestamp: clock(),
        };
        if (o.fullOutputPath !== undefined) msg.fullOutputPath = o.fullOutputPath;
        if (o.exclude) msg.excludeFromContext = true;
        sm.appendMessage(msg as never);
        pending = [];
        break;
      }
      case 'customMessage': {
        const content =
          typeof o.content === 'string'
            ? o.content
            : o.content.map((p) =>
                p.kind === 'text'
                  ? { type: 'text' as const, text: p.text ?? '' }
                  : { type: 'image' as const, data: p.data ?? '', mimeType: p.mimeType ?? 'image/png' },
              );
        sm.appendCustomMessageEntry(o.customType, content, o.display);
        break;
      }
      case 'custom':
        sm.appendCustomEntry(o.customType, o.data);
        break;
      case 'compaction': {
        const branch = sm.getBranch();
        const all = branch.length > 0 ? branch : sm.getEntries();
        const first = o.unknownFirstKept || all.length === 0 ? 'ffffffff' : all[o.pick % all.length].id;
        sm.appendCompaction(o.summary, first, o.tokensBefore, { readFiles: [], modifiedFiles: [] }, false);
        pending = [];
        break;
      }
      case 'branch': {
        const all = ids();
        if (all.length > 0) sm.branch(all[o.pick % all.length]);
        pending = [];
        break;
      }
      case 'branchWithSummary': {
        const all = ids();
        const from = o.pick === null || all.length === 0 ? null : all[o.pick % all.length];
        sm.branchWithSummary(from, o.summary, undefined, false);
        pending = [];
        break;
      }
      case 'resetLeaf':
        sm.resetLeaf();
        pending = [];
        break;
      case 'modelChange': {
        model = o.model % PI_MODELS.length;
        sm.appendModelChange(PI_MODELS[model].provider, PI_MODELS[model].model);
        break;
      }
      case 'thinkingLevel':
        sm.appendThinkingLevelChange(o.level);
        break;
      case 'label': {
        const all = ids();
        if (all.length > 0) sm.appendLabelChange(all[o.pick % all.length], o.label);
        break;
      }
      case 'sessionInfo':
        sm.appendSessionInfo(o.name);
        break;
    }
  }
  return sm;
}

/** The file pi would write for this manager: header line + every entry, each ending in '\n'. */
export function piFileText(sm: SessionManager): string {
  const header = sm.getHeader();
  const lines = [JSON.stringify(header), ...sm.getEntries().map((e) => JSON.stringify(e))];
  return lines.join('\n') + '\n';
}
