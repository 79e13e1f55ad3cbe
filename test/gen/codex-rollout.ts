// A Codex CLI rollout made to order, with every record and item type the adapter reads
// (src/core/formats/codex), in both orders Codex writes a response's token_count (older versions
// before its items, newer after). Deterministic: the same options give the same bytes. Small ones
// are committed (fixtures/other-agents/codex/generated-every-item.jsonl); big ones are made on demand.

type Obj = Record<string, unknown>;

export interface RolloutOptions {
  /** Turns after the opening one (each ~25 records). */
  turns?: number;
  sessionId?: string;
}

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABh6FO1AAAAABJRU5ErkJggg==';

/** The records of a rollout, in order. */
export function codexRolloutRecords(opts: RolloutOptions = {}): Obj[] {
  const turns = opts.turns ?? 6;
  const id = opts.sessionId ?? '019a0000-0000-7000-8000-00000000c0de';
  const out: Obj[] = [];
  let clock = Date.UTC(2026, 0, 2, 3, 4, 5);
  const rec = (type: string, payload: Obj | null) => {
    clock += 1000;
    out.push(payload === null ? { timestamp: new Date(clock).toISOString(), type } : { timestamp: new Date(clock).toISOString(), type, payload });
  };
  const total = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  const tokens = (n: number) => {
    const last = { input_tokens: 1000 + n, cached_input_tokens: 600 + n, output_tokens: 50 + n, reasoning_output_tokens: 20, total_tokens: 1050 + 2 * n };
    for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += last[k];
    rec('event_msg', {
      type: 'token_count',
      info: { total_token_usage: { ...total }, last_token_usage: last, model_context_window: 272000 },
      rate_limits: null,
    });
  };
  const repeatTokens = () =>
    rec('event_msg', { type: 'token_count', info: { total_token_usage: { ...total }, last_token_usage: { ...total }, model_context_window: 272000 } });

  rec('session_meta', {
    id,
    timestamp: new Date(clock).toISOString(),
    cwd: '/home/dev/project',
    originator: 'codex_cli_rs',
    cli_version: '0.120.0',
    source: 'cli',
    model_provider: 'openai',
    base_instructions: { text: 'You are Codex.' },
    git: { commit_hash: 'abc123', branch: 'main' },
  });
  rec('response_item', {
    type: 'message',
    role: 'developer',
    content: [{ type: 'input_text', text: '<permissions instructions>\nsandbox: workspace-write\n</permissions instructions>' }],
  });
  rec('response_item', {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: '# AGENTS.md instructions for /home/dev/project\n\n<INSTRUCTIONS>\nBe brief.\n</INSTRUCTIONS>' },
      { type: 'input_text', text: '<environment_context>\n  <cwd>/home/dev/project</cwd>\n</environment_context>' },
    ],
  });
  for (let t = 0; t <= turns; t++) {
    const turnId = `turn-${t}`;
    const oldOrder = t % 2 === 1; // token_count before the response's items, as Codex ≤0.40 writes it
    rec('event_msg', { type: 'task_started', turn_id: turnId, model_context_window: 272000 });
    rec('turn_context', {
      turn_id: turnId,
      cwd: '/home/dev/project',
      approval_policy: 'on-request',
      model: t % 4 < 2 ? 'gpt-5.3-codex' : 'gpt-5.4',
      effort: t % 3 === 0 ? 'high' : 'medium',
      summary: 'auto',
    });
    const words = `Turn ${t}: look at the build and fix it`;
    const content: Obj[] = [{ type: 'input_text', text: words }];
    if (t === 1) content.push({ type: 'input_image', image_url: `data:image/png;base64,${PNG}` });
    rec('response_item', { type: 'message', role: 'user', content });
    rec('event_msg', { type: 'user_message', message: words, images: t === 1 ? [`data:image/png;base64,${PNG}`] : [], local_images: [], text_elements: [] });
    rec('event_msg', { type: 'token_count', info: null, rate_limits: null });

    // Response 1: reasoning (summary + encrypted), commentary, two parallel exec calls.
    if (oldOrder) tokens(t);
    rec('event_msg', { type: 'agent_reasoning', text: `**Thinking ${t}**` });
    rec('response_item', {
      type: 'reasoning',
      id: `rs_${t}a`,
      summary: [{ type: 'summary_text', text: `**Thinking ${t}**` }],
      content: null,
      encrypted_content: `gAAAA${t}encrypted`,
    });
    rec('event_msg', { type: 'agent_message', message: `Checking ${t}.`, phase: 'commentary' });
    rec('response_item', {
      type: 'message',
      id: `msg_${t}a`,
      role: 'assistant',
      content: [{ type: 'output_text', text: `Checking ${t}.` }],
      phase: 'commentary',
    });
    rec('response_item', {
      type: 'function_call',
      id: `fc_${t}a`,
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: `make test-${t}` }),
      call_id: `call_${t}a`,
    });
    rec('response_item', { type: 'function_call', name: 'shell_command', arguments: '{"command": "ls"', call_id: `call_${t}b` });
    if (!oldOrder) tokens(t);
    rec('event_msg', { type: 'exec_command_end', call_id: `call_${t}a`, exit_code: t % 2, stdout: 'ok', stderr: '' });
    rec('response_item', {
      type: 'function_call_output',
      call_id: `call_${t}a`,
      output: `Exit code: ${t % 2}\nWall time: 0.1 seconds\nOutput:\nran test ${t}\n`,
    });
    rec('response_item', { type: 'function_call_output', call_id: `call_${t}b`, output: `Process exited with code 0\nOutput:\nsrc\n` });

    // Response 2: encrypted-only reasoning, apply_patch, a local shell call, a tool search, a web search.
    if (oldOrder) tokens(t + 1);
    rec('response_item', { type: 'reasoning', summary: [], content: null, encrypted_content: `gAAAA${t}only` });
    rec('response_item', {
      type: 'custom_tool_call',
      status: 'completed',
      call_id: `call_${t}p`,
      name: 'apply_patch',
      input: `*** Begin Patch\n*** Update File: a${t}.txt\n@@\n-old\n+new\n*** End Patch\n`,
    });
    rec('response_item', {
      type: 'local_shell_call',
      id: `lsh_${t}`,
      call_id: `call_${t}l`,
      status: 'completed',
      action: { type: 'exec', command: ['bash', '-lc', 'pwd'] },
    });
    if (!oldOrder) tokens(t + 1);
    rec('event_msg', { type: 'patch_apply_end', call_id: `call_${t}p`, success: true, stdout: 'Success.' });
    rec('response_item', {
      type: 'custom_tool_call_output',
      call_id: `call_${t}p`,
      output: JSON.stringify({ output: 'Success. Updated the following files:\nM a.txt\n', metadata: { exit_code: 0, duration_seconds: 0 } }),
    });
    rec('response_item', { type: 'function_call_output', call_id: `call_${t}l`, output: '/home/dev/project\n' });
    rec('response_item', {
      type: 'tool_search_call',
      id: `tsc_${t}`,
      call_id: `call_${t}s`,
      status: 'completed',
      execution: 'client',
      arguments: { query: 'browser', limit: 2 },
    });
    rec('response_item', {
      type: 'tool_search_output',
      call_id: `call_${t}s`,
      status: 'completed',
      execution: 'client',
      tools: [{ type: 'namespace', name: 'codex_app', tools: [{ type: 'function', name: 'open_browser' }] }],
    });
    rec('event_msg', { type: 'web_search_end', call_id: `ws_${t}`, query: `codex ${t}`, action: { type: 'search', query: `codex ${t}` } });
    rec('response_item', { type: 'web_search_call', status: 'completed', action: { type: 'search', query: `codex ${t}` } });
    rec('response_item', { type: 'function_call', name: 'view_image', arguments: '{"path":"a.png"}', call_id: `call_${t}v` });
    rec('response_item', {
      type: 'function_call_output',
      call_id: `call_${t}v`,
      output: [
        { type: 'input_text', text: 'the image:' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
      ],
    });
    rec('response_item', { type: 'ghost_snapshot', ghost_commit: { id: `g${t}`, parent: null } });

    // Response 3: the answer, then a repeated token_count and the turn's end.
    if (oldOrder) tokens(t + 2);
    rec('event_msg', { type: 'agent_message', message: `Done ${t}.`, phase: 'final_answer' });
    rec('response_item', {
      type: 'message',
      id: `msg_${t}z`,
      role: 'assistant',
      content: [{ type: 'output_text', text: `Done ${t}.` }],
      phase: 'final_answer',
    });
    if (!oldOrder) tokens(t + 2);
    repeatTokens();
    if (t % 3 === 2) {
      rec('event_msg', { type: 'turn_aborted', turn_id: turnId, reason: 'interrupted' });
      rec('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>' }],
      });
    } else {
      rec('event_msg', { type: 'task_complete', turn_id: turnId, last_agent_message: `Done ${t}.` });
    }
    if (t === 2) rec('event_msg', { type: 'error', message: 'stream disconnected before completion' });
    if (t === 3) {
      rec('compacted', {
        message: '',
        replacement_history: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Turn 0: look at the build and fix it' }] },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done 0.' }] },
          { type: 'compaction', encrypted_content: 'gAAAAcompact' },
        ],
      });
      rec('event_msg', { type: 'context_compacted' });
    }
    if (t === 5) rec('compacted', { message: `Summary of turns 0-${t}: the build was fixed.` });
    if (t === 4) {
      const shell =
        '<user_shell_command>\n<command>\ngit status\n</command>\n<result>\nExit code: 0\nDuration: 0.0400 seconds\nOutput:\nOn branch main\n\n</result>\n</user_shell_command>';
      rec('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: shell }] });
    }
  }
  return out;
}

/** The rollout as JSONL text (one record a line, each ending in "\n"). */
export function codexRollout(opts: RolloutOptions = {}): string {
  return codexRolloutRecords(opts)
    .map((r) => `${JSON.stringify(r)}\n`)
    .join('');
}

/**
 * A bare-era rollout (codex-cli until about September 2025): the session line without envelope or
 * cwd, bare response items, `{"record_type":"state"}` lines, no per-line timestamps.
 */
export function codexBareRollout(): string {
  const lines: Obj[] = [
    { id: 'c3c4b301-27c8-4c70-b6e4-46b99fdf0236', timestamp: '2025-05-20T10:00:00.000Z', instructions: null, git: { commit_hash: 'abc', branch: 'main' } },
    { record_type: 'state' },
    {
      type: 'message',
      id: null,
      role: 'user',
      content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/Users/x/legacy</cwd>\n</environment_context>' }],
    },
    { type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: 'hello codex' }] },
    { record_type: 'state' },
    { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Listing first' }], encrypted_content: 'gAAAAbare' },
    { type: 'local_shell_call', id: 'lsh_1', call_id: 'call_1', status: 'completed', action: { type: 'exec', command: ['ls'] } },
    { type: 'function_call_output', call_id: 'call_1', output: JSON.stringify({ output: 'a.txt\n', metadata: { exit_code: 0, duration_seconds: 0.1 } }) },
    { record_type: 'state' },
    { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'There is a.txt.' }] },
    { record_type: 'state' },
  ];
  return lines.map((l) => `${JSON.stringify(l)}\n`).join('');
}
