/**
 * `omp-executions.jsonl`: the shapes omp 18 stores around executions and mentions, as its types
 * declare them (session-format.md §2, §3; omp's `BashExecutionMessage`, `PythonExecutionMessage`,
 * `FileMentionMessage` in pi-tui `chat/messages.ts` and what `generateFileMentionMessages` writes):
 * `!cmd` runs with and without an exit code, images and output meta, `$` python runs, `@file`
 * mentions (text, directory listing, image, skipped as too large or binary), pruned tool results,
 * the omp-only entry types with their optional fields, and three shapes nobody knows (an entry
 * type, a role, a part type in assistant and in user content) that must read as unknown, not as problems.
 */
import { BLOB, OmpFile, SMALL_PNG } from './omp-shapes.ts';

/** The text of fixtures/omp/omp-executions.jsonl. */
export function ompExecutionsFile(): string {
  const f = new OmpFile('Executions, mentions and every omp entry');
  f.entry('model_change', { model: 'anthropic/claude-sonnet-4-5', resolvedModelIsFallback: false });
  // Auto mode: no level yet, configured "auto" (omp writes null, §2.4).
  f.entry('thinking_level_change', { thinkingLevel: null, configured: 'auto' });
  f.entry('service_tier_change', { serviceTier: 'priority' });
  f.entry('service_tier_change', { serviceTier: null });
  f.entry('session_init', {
    systemPrompt: 'You are a subagent.',
    task: 'run the tests',
    tools: ['bash', 'python'],
    agent: 'task',
    modelRole: 'smol',
    readOnly: false,
    compactionThreshold: { thresholdPercent: 80, thresholdTokens: 160000 },
  });
  f.user('Run the tests, then look at @src/parse.ts @src/ @logo.png @huge.log @bin/tool', { attribution: 'user' });
  f.entry('message', {
    message: {
      role: 'fileMention',
      files: [
        { path: 'src/parse.ts', content: 'export function parse() {}\n', lineCount: 2 },
        { path: 'src/', content: 'parse.ts (2m ago)\nindex.ts (1h ago)', lineCount: 2 },
        { path: 'logo.png', content: '', image: { type: 'image', mimeType: 'image/png', data: SMALL_PNG } },
        { path: 'huge.log', content: '(skipped auto-read: too large, 6.0 MB)', byteSize: 6291456, skippedReason: 'tooLarge' },
        { path: 'bin/tool', content: '(skipped auto-read: binary file, 12 KB)', byteSize: 12288, skippedReason: 'binary' },
      ],
      timestamp: f.ms(),
    },
  });
  // `!npm test`: omp keeps no fullOutputPath; exitCode undefined is absent from the JSON.
  f.entry('message', {
    message: {
      role: 'bashExecution',
      command: 'npm test',
      output: '2 passed, 1 failed',
      exitCode: 1,
      cancelled: false,
      truncated: true,
      meta: { truncation: { totalLines: 4000, outputLines: 2000 }, limits: { maxBytes: 51200 } },
      timestamp: f.ms(),
    },
  });
  f.entry('message', {
    message: { role: 'bashExecution', command: 'sleep 100', output: '', cancelled: true, truncated: false, timestamp: f.ms() },
  });
  f.entry('message', {
    message: {
      role: 'bashExecution',
      command: 'screenshot',
      output: 'saved',
      exitCode: 0,
      cancelled: false,
      truncated: false,
      images: [{ type: 'image', data: BLOB, mimeType: 'image/png' }],
      excludeFromContext: true,
      timestamp: f.ms(),
    },
  });
  // `$print(1)`: python, with and without an exit code.
  f.entry('message', {
    message: { role: 'pythonExecution', code: 'print(1)', output: '1\n', exitCode: 0, cancelled: false, truncated: false, timestamp: f.ms() },
  });
  f.entry('message', {
    message: { role: 'pythonExecution', code: 'while True: pass', output: '', cancelled: true, truncated: false, excludeFromContext: true, timestamp: f.ms() },
  });
  f.assistant(
    [
      { type: 'thinking', thinking: '', thinkingSignature: 'ZW5jcnlwdGVk' },
      { type: 'text', text: 'One test fails; reading the log.' },
      { type: 'toolCall', id: 'toolu_x1', name: 'bash', arguments: { command: 'cat test.log' } },
      { type: 'anthropicServerTool', block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'vitest' } } },
    ],
    'toolUse',
  );
  f.tool('toolu_x1', 'bash', [{ type: 'text', text: '[Output truncated - 1200 tokens]' }], false, { prunedAt: 1767340900000, useless: true });
  f.entry('message', { message: { role: 'developer', content: 'The user prefers short answers.', userInitiated: false, timestamp: f.ms() } });
  f.entry('message', {
    message: { role: 'custom', customType: 'advisor', content: 'Consider the flaky test.', display: true, attribution: 'agent', timestamp: f.ms() },
  });
  f.entry('model_usage', {
    purpose: 'judge',
    role: 'smol',
    api: 'anthropic-messages',
    provider: 'anthropic',
    model: 'claude-haiku-4-5',
    usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 12, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: 'error',
    errorMessage: 'overloaded',
  });
  f.entry('mode_change', { mode: 'none' });
  f.entry('ttsr_injection', { injectedRules: [] });
  f.entry('title_change', { title: 'Executions', source: 'auto' });
  const mark = f.assistant([{ type: 'text', text: 'Fixed.' }], 'stop');
  f.customLast('custom_message', { customType: 'rewind-report', content: 'Rewound to the checkpoint.', display: false, attribution: 'agent' });
  f.entry('branch_summary', { fromId: mark, summary: '', details: { kind: 'discarded-entry-branch' }, fromExtension: false });
  f.entry('label', { targetId: mark, label: 'the fix' });
  // Shapes no tool writes today: kept and shown as unknown, never reported.
  f.entry('future_entry_kind', { payload: { any: 'thing' } });
  f.entry('message', { message: { role: 'turnStart', turn: 3, sigil: '§', nonce: 'n', timestamp: f.ms() } });
  f.assistant(
    [
      { type: 'text', text: 'Done.' },
      { type: 'hologram', frames: 3 },
    ],
    'stop',
  );
  // A user part of a type nobody writes yet (kept, sent to no model).
  f.user([
    { type: 'text', text: 'And this one?' },
    { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
  ]);
  f.assistant([{ type: 'text', text: 'It is a sound.' }], 'stop');
  return f.text();
}
