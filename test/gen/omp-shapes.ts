/**
 * Files in omp's shape (session-format.md §1–§3), one of every omp-specific construct: the
 * 256-byte title slot (also with a long multi-byte title that must be cut), `model: "p/id"`
 * model changes with roles, compactions with `tokensAfter`/`method`/`fromExtension`/`shortSummary`,
 * assistant image parts, `retryRecovery` turns (both statuses), `reset_boundary`, blob image refs,
 * `redactedThinking`, steering, omp-only roles and entry types.
 */
import { titleSlot } from './session.ts';

const T0 = Date.UTC(2026, 0, 2, 8, 0, 0);
/** A usage of a successful turn. */
export const usage = {
  input: 100,
  output: 20,
  cacheRead: 1000,
  cacheWrite: 0,
  totalTokens: 1120,
  cost: { input: 0.0003, output: 0.0003, cacheRead: 0.0003, cacheWrite: 0, total: 0.0009 },
};
const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
/** An omp blob image reference. */
export const BLOB = 'blob:sha256:' + '3f'.repeat(32);
/** A 1×1 PNG, base64. */
export const SMALL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Writes an omp-shaped file line by line (title slot, header, entries with ids and parents). */
export class OmpFile {
  private lines: string[] = [];
  private leaf: string | null = null;
  private n = 0;
  private t = T0;
  constructor(slotTitle: string | null, headerExtra: Record<string, unknown> = {}) {
    if (slotTitle !== null) this.lines.push(titleSlot(slotTitle, new Date(T0).toISOString(), 'user'));
    this.lines.push(
      JSON.stringify({
        type: 'session',
        version: 3,
        id: '01a22bfc-8083-7289-ad69-dcce949addb1',
        timestamp: new Date(T0).toISOString(),
        cwd: '/home/dev/omp',
        ...headerExtra,
      }),
    );
  }
  iso(): string {
    return new Date(this.t).toISOString();
  }
  ms(): number {
    this.t += 1500;
    return this.t;
  }
  id(): string {
    return (0xe0000000 + ++this.n).toString(16);
  }
  entry(type: string, payload: Record<string, unknown>, parentId: string | null = this.leaf): string {
    const id = this.id();
    this.lines.push(JSON.stringify({ type, id, parentId, timestamp: this.iso(), ...payload }));
    this.leaf = id;
    return id;
  }
  customLast(type: string, payload: Record<string, unknown>): string {
    const id = this.id();
    this.lines.push(JSON.stringify({ type, ...payload, id, parentId: this.leaf, timestamp: this.iso() }));
    this.leaf = id;
    return id;
  }
  user(content: unknown, extra: Record<string, unknown> = {}): string {
    return this.entry('message', { message: { role: 'user', content, timestamp: this.ms(), ...extra } });
  }
  assistant(content: unknown[], stopReason = 'stop', extra: Record<string, unknown> = {}): string {
    return this.entry('message', {
      message: {
        role: 'assistant',
        content,
        api: 'anthropic-messages',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        usage: stopReason === 'error' || stopReason === 'aborted' ? zero : usage,
        stopReason,
        timestamp: this.ms(),
        ...extra,
      },
    });
  }
  tool(toolCallId: string, toolName: string, content: unknown[], isError = false, extra: Record<string, unknown> = {}): string {
    return this.entry('message', { message: { role: 'toolResult', toolCallId, toolName, content, isError, timestamp: this.ms(), ...extra } });
  }
  setLeaf(id: string | null): void {
    this.leaf = id;
  }
  text(): string {
    return this.lines.join('\n') + '\n';
  }
}

/** The omp fixtures: name → file text. */
export function ompShapeFiles(): Record<string, string> {
  const files: Record<string, string> = {};

  // --- every omp shape in one session ---
  const f = new OmpFile('Port the parser to streaming 🚀', { title: 'stale header title', titleSource: 'auto', additionalDirectories: ['/home/dev/lib'] });
  f.entry('model_change', { model: 'anthropic/claude-sonnet-4-5', resolvedModelIsFallback: false });
  f.entry('thinking_level_change', { thinkingLevel: 'high', configured: 'high' });
  f.entry('model_change', { model: 'anthropic/claude-haiku-4-5', role: 'smol', resolvedModelIsFallback: false });
  f.entry('session_init', { systemPrompt: 'You are a subagent.', task: 'explore', tools: ['read', 'grep'] });
  f.user([
    { type: 'text', text: 'Look at this screenshot' },
    { type: 'image', data: BLOB, mimeType: 'image/png' },
    { type: 'image', data: SMALL_PNG, mimeType: 'image/png' },
  ]);
  f.assistant(
    [
      { type: 'thinking', thinking: 'Reading the image.', thinkingSignature: 'c2lnbmF0dXJl', itemId: 'rs_1' },
      { type: 'redactedThinking', data: 'ZW5jcnlwdGVk' },
      { type: 'text', text: 'I see a parser diagram.' },
      { type: 'toolCall', id: 'toolu_01', name: 'read', arguments: { path: 'src/parse.ts' }, intent: 'read the parser' },
    ],
    'toolUse',
  );
  f.tool(
    'toolu_01',
    'read',
    [
      { type: 'text', text: 'export function parse() {}' },
      { type: 'image', data: BLOB, mimeType: 'image/png', detail: 'auto' },
    ],
    false,
    { attribution: 'agent' },
  );
  const errorTurn = f.assistant([{ type: 'text', text: 'Partial answer before the provider failed' }], 'error', {
    errorMessage: '529 overloaded',
    retryRecovery: {
      kind: 'auto-retry',
      status: 'recovered',
      attempt: 1,
      recoveredAt: f.iso(),
      recovery: 'wait',
      note: 'rate-limited; waited; retried',
      supersededBy: { timestamp: f.iso(), provider: 'anthropic', model: 'claude-sonnet-4-5' },
    },
  });
  f.entry('model_change', { model: 'openai/gpt-5.1', role: 'fallback', resolvedModelIsFallback: true });
  f.assistant(
    [
      { type: 'text', text: 'Superseded attempt' },
      { type: 'toolCall', id: 'toolu_02', name: 'bash', arguments: { command: 'ls' } },
    ],
    'error',
    {
      errorMessage: 'stream ended',
      retryRecovery: { kind: 'auto-retry', status: 'superseded', attempt: 2, recovery: 'plain', note: 'error; retried' },
    },
  );
  f.assistant(
    [
      { type: 'text', text: 'Here is the diagram you asked for:' },
      { type: 'image', data: BLOB, mimeType: 'image/png' },
    ],
    'stop',
  );
  f.assistant([{ type: 'image', data: SMALL_PNG, mimeType: 'image/png' }], 'stop');
  f.user('Keep going', { steering: true });
  f.assistant(
    [
      { type: 'text', text: 'Continuing.' },
      { type: 'fallback', from: { model: 'anthropic/claude-sonnet-4-5' }, to: { model: 'openai/gpt-5.1' } },
    ],
    'stop',
  );
  f.entry('message', { message: { role: 'developer', content: [{ type: 'text', text: 'developer note' }], attribution: 'agent', timestamp: f.ms() } });
  f.entry('message', { message: { role: 'fileMention', files: [{ path: 'src/a.ts', content: 'let a = 1;', lineCount: 1 }], timestamp: f.ms() } });
  f.entry('message', {
    message: { role: 'pythonExecution', code: 'print(1)', output: '1', exitCode: 0, cancelled: false, truncated: false, timestamp: f.ms() },
  });
  f.entry('message', { message: { role: 'hookMessage', customType: 'legacy', content: 'legacy hook message in v3', display: true, timestamp: f.ms() } });
  f.customLast('custom_message', {
    customType: 'lsp-late-diagnostic',
    content: [
      { type: 'text', text: 'error TS2304' },
      { type: 'image', data: BLOB, mimeType: 'image/png' },
    ],
    display: true,
    attribution: 'agent',
  });
  f.customLast('custom', { customType: 'experimental_context_notes', data: { version: 1, text: 'notes' } });
  f.entry('service_tier_change', { serviceTier: { openai: 'priority' } });
  f.entry('ttsr_injection', { injectedRules: ['rule-a'] });
  f.entry('mode_change', { mode: 'plan', data: { step: 1 } });
  f.entry('credential_pin', { provider: 'anthropic', hash: 'ab'.repeat(32) });
  f.entry('model_usage', { purpose: 'title', api: 'anthropic-messages', provider: 'anthropic', model: 'claude-haiku-4-5', usage, stopReason: 'stop' });
  f.entry('title_change', { title: 'Port the parser to streaming 🚀', source: 'user', previousTitle: 'stale header title', trigger: 'user' });
  const beforeCompaction = f.user('Summarize and continue');
  f.assistant([{ type: 'text', text: 'Will do.' }], 'stop');
  f.entry('compaction', {
    summary: '## Goal\nStreaming parser.\n\n<files>\nsrc/parse.ts\n</files>',
    shortSummary: 'Streaming parser work.',
    firstKeptEntryId: beforeCompaction,
    tokensBefore: 120000,
    tokensAfter: 9000,
    method: 'soft',
    details: { readFiles: ['src/parse.ts'], modifiedFiles: [] },
    fromExtension: false,
  });
  f.user('After the compaction');
  f.assistant(
    [
      { type: 'text', text: 'Noted.' },
      { type: 'toolCall', id: 'toolu_03', name: 'read', arguments: { path: 'x' } },
    ],
    'aborted',
    { errorMessage: 'Interrupted by user' },
  );
  f.tool('toolu_03', 'read', [{ type: 'text', text: 'Tool execution was aborted.' }], true, { details: { reason: 'aborted' } });
  f.entry('reset_boundary', {});
  f.user('After /clear');
  f.assistant([{ type: 'text', text: 'Fresh start.' }], 'stop');
  f.entry('compaction', {
    summary: 'Remote compaction preserved provider-native history for this session. Compaction processed 5000 input tokens.',
    shortSummary: 'Remote compaction',
    firstKeptEntryId: '',
    tokensBefore: 5000,
    tokensAfter: 100,
    method: 'remote',
    providerReplayThroughEntryId: errorTurn,
    preserveData: { openaiRemoteCompaction: { replacementHistory: [] } },
  });
  f.entry('compaction', {
    summary: 'Handoff: continue the streaming work.',
    firstKeptEntryId: 'not-on-branch',
    tokensBefore: 6000,
    tokensAfter: 500,
    method: 'handoff',
    fromExtension: false,
  });
  f.user('Last question');
  f.assistant([{ type: 'text', text: 'Last answer.' }], 'stop');
  files['omp-shapes'] = f.text();

  // --- a long multi-byte title that the slot must cut, and an empty slot title ---
  const long = new OmpFile('Überarbeitung des Parsers für sehr große Sitzungen — 日本語のタイトルも含めて長くする '.repeat(6));
  long.entry('model_change', { model: 'openrouter/anthropic/claude-sonnet-4.5:high', resolvedModelIsFallback: false });
  long.user('hello');
  long.assistant([{ type: 'text', text: 'hi' }]);
  files['omp-title-slot-long'] = long.text();

  const empty = new OmpFile('', { title: 'header title ignored when the slot is empty' });
  empty.entry('model_change', { model: 'anthropic/claude-sonnet-4-5' });
  empty.user('untitled');
  files['omp-title-slot-empty'] = empty.text();

  // --- a slot-less omp file (header-only title), appended to cleanly ---
  const slotless = new OmpFile(null, { title: 'Header-only title', titleSource: 'user' });
  slotless.entry('model_change', { model: 'openai-codex/gpt-5', resolvedModelIsFallback: false });
  slotless.user('hi');
  slotless.assistant([{ type: 'text', text: 'hello' }]);
  files['omp-slotless'] = slotless.text();

  // --- invalid slot (v:2): becomes the first record, so there is no valid header first ---
  files['omp-invalid-slot'] = files['omp-slotless'].replace(/^/, JSON.stringify({ type: 'title', v: 2, title: 'bad', updatedAt: 'x', pad: '' }) + '\n');
  return files;
}
