// The branch's messages as the model sees them (messages): roles, summaries, tool results, images.
import { describe, expect, test } from 'vitest';
import { ABORTED_TOOL_TEXT, BRANCH_SUMMARY_PREFIX, branch, context, messages, parse } from '../../../src/core/index.ts';
import { HEADER, e, jsonl, m } from '../helpers.ts';
import { valid, u, a, tr, T, call, img, chain } from './context-helpers.ts';

describe('messages', () => {
  test('user, assistant with thinking/text/tool call, and its result', () => {
    const out = valid(
      messages(
        chain(
          u('1', null, 'hi'),
          a('2', null, [{ type: 'thinking', thinking: 'hmm', thinkingSignature: 'sig' }, T('ok'), call('c1')], { stopReason: 'toolUse' }),
          tr('3', null, 'c1', [T('file')]),
        ),
      ),
    );
    expect(out).toEqual([
      { role: 'user', content: [T('hi')] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'hmm', providerOptions: { pi: { thinkingSignature: 'sig' }, anthropic: { signature: 'sig' } } },
          T('ok'),
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'x' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'file' } }] },
    ]);
  });

  test('drops empty, thinking-only and retryRecovery assistant turns; keeps errors with text', () => {
    const out = valid(
      messages(
        chain(
          a('1', null, [], { stopReason: 'aborted' }),
          a('2', null, [T('  ')], { stopReason: 'error' }),
          a('3', null, [{ type: 'thinking', thinking: 'x' }]),
          a('4', null, [T('partial')], { stopReason: 'error', retryRecovery: { kind: 'auto-retry', status: 'recovered' } }),
          a('5', null, [T('partial')], { stopReason: 'aborted' }),
        ),
      ),
    );
    expect(out).toEqual([{ role: 'assistant', content: [T('partial')] }]);
  });

  test('redacted thinking is not sent; images of an assistant never are', () => {
    const out = valid(
      messages(
        chain(
          a('1', null, [
            { type: 'thinking', thinking: '', redacted: true, thinkingSignature: 'opaque' },
            { type: 'redactedThinking', data: 'x' },
            T('hi'),
            img(),
          ]),
          a('2', null, [img()]),
        ),
      ),
    );
    expect(out).toEqual([
      { role: 'assistant', content: [T('hi')] },
      { role: 'assistant', content: [T('(made a picture)')] },
    ]);
  });

  test('a tool call without result gets an "aborted" error result before the next message', () => {
    const out = valid(
      messages(chain(a('1', null, [call('c1'), call('c2')]), tr('2', null, 'c1', [T('ok')]), u('3', null, 'next'), a('4', null, [call('c3')]))),
    );
    expect(ABORTED_TOOL_TEXT).toBe('aborted');
    expect(out.map((x) => x.role)).toEqual(['assistant', 'tool', 'tool', 'user', 'assistant', 'tool']);
    expect(out[2]).toEqual({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'read', output: { type: 'error-text', value: 'aborted' } }],
    });
    expect(out[5]).toEqual({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c3', toolName: 'read', output: { type: 'error-text', value: 'aborted' } }],
    });
  });

  test('tool results: error text, images as content, details never sent', () => {
    const out = valid(
      messages(
        chain(
          a('0', null, [call('c1'), call('c2')]),
          tr('1', null, 'c1', [T('bad')], { isError: true, details: { secret: 1 } }),
          tr('2', null, 'c2', [T('shot'), img('QUJD', 'image/jpeg')]),
        ),
      ),
    );
    expect((out[1] as any).content[0].output).toEqual({ type: 'error-text', value: 'bad' });
    expect((out[2] as any).content[0].output).toEqual({ type: 'content', value: [T('shot'), { type: 'image-data', data: 'QUJD', mediaType: 'image/jpeg' }] });
    expect(JSON.stringify(out)).not.toContain('secret');
  });

  test('without "image" input, runs of images become pi notes', () => {
    const opts = { inputs: ['text' as const] };
    const out = valid(
      messages(chain(u('1', null, [T('a'), img(), img(), T('b'), img()]), a('2', null, [call('c')]), tr('3', null, 'c', [T('t'), img(), img()])), opts),
    );
    expect(out[0]).toEqual({
      role: 'user',
      content: [T('a'), T('(image omitted: model does not support images)'), T('b'), T('(image omitted: model does not support images)')],
    });
    expect((out[2] as any).content[0].output).toEqual({ type: 'text', value: 't\n(tool image omitted: model does not support images)' });
  });

  test('user images go as image parts; blob refs are resolved or become notes', () => {
    const ref = 'blob:sha256:' + 'a'.repeat(64);
    const entries = chain(u('1', null, [img('QUJD'), img(ref)]));
    expect(valid(messages(entries))[0]).toEqual({
      role: 'user',
      content: [{ type: 'image', image: 'QUJD', mediaType: 'image/png' }, T('(image omitted: model does not support images)')],
    });
    const resolved = valid(messages(entries, { resolveBlob: (r) => (r === ref ? 'RkZG' : null) }))[0];
    expect(resolved).toEqual({
      role: 'user',
      content: [
        { type: 'image', image: 'QUJD', mediaType: 'image/png' },
        { type: 'image', image: 'RkZG', mediaType: 'image/png' },
      ],
    });
  });

  test('PDF attachments: file parts with "pdf" input, newest first within the budget', () => {
    const pdf = (name: string) => ({ kind: 'pdf', name, path: `/w/${name}`, mimeType: 'application/pdf', about: 'doc' });
    const files: Record<string, Uint8Array> = { '/w/old.pdf': new Uint8Array(6), '/w/mid.pdf': new Uint8Array(5), '/w/new.pdf': new Uint8Array(4) };
    const entries = chain(
      u('1', null, [T('o')], { attachments: [pdf('old.pdf')] }),
      u('2', null, [T('m')], { attachments: [pdf('mid.pdf')] }),
      u('3', null, [T('n')], { attachments: [pdf('new.pdf')] }),
    );
    const read = (p: string) => files[p] ?? null;
    const out = valid(messages(entries, { inputs: ['text', 'image', 'pdf'], readAttachment: read, maxPdfBytes: 10 }));
    const fileParts = out.map((x) => (x.content as any[]).filter((p) => p.type === 'file').map((p) => p.filename));
    expect(fileParts).toEqual([[], ['mid.pdf'], ['new.pdf']]);
    expect(valid(messages(entries, { readAttachment: read })).every((x) => (x.content as any[]).every((p) => p.type !== 'file'))).toBe(true);
  });

  test('bashExecution, custom role, custom_message and branch_summary become user messages', () => {
    const out = valid(
      messages(
        chain(
          m('1', null, {
            role: 'bashExecution',
            command: 'ls',
            output: 'a\nb',
            exitCode: 2,
            cancelled: false,
            truncated: true,
            fullOutputPath: '/tmp/o',
            timestamp: 1,
          }),
          m('2', null, { role: 'bashExecution', command: 'x', output: '', exitCode: 0, cancelled: true, truncated: false, timestamp: 1 }),
          m('3', null, { role: 'bashExecution', command: 'y', output: 'z', cancelled: false, truncated: false, excludeFromContext: true, timestamp: 1 }),
          m('4', null, { role: 'custom', customType: 'k', content: 'cm', display: true, timestamp: 1 }),
          e('5', null, 'custom_message', { customType: 'rho.notice', content: [T('note')], display: true }),
          e('6', null, 'branch_summary', { fromId: 'root', summary: 'BS' }),
          e('7', null, 'branch_summary', { fromId: 'root', summary: '' }),
        ),
      ),
    );
    expect(out).toEqual([
      { role: 'user', content: [T('Ran `ls`\n```\na\nb\n```\n\nCommand exited with code 2\n\n[Output truncated. Full output: /tmp/o]')] },
      { role: 'user', content: [T('Ran `x`\n(no output)\n\n(command cancelled)')] },
      { role: 'user', content: [T('cm')] },
      { role: 'user', content: [T('note')] },
      { role: 'user', content: [T(BRANCH_SUMMARY_PREFIX + 'BS</summary>')] },
    ]);
  });

  test('every other entry type and role is ignored, reset_boundary included', () => {
    const out = messages(
      chain(
        e('1', null, 'model_change', { provider: 'a', modelId: 'b' }),
        e('2', null, 'reset_boundary'),
        e('3', null, 'custom', { customType: 'state', data: {} }),
        e('4', null, 'compaction', { summary: 's', firstKeptEntryId: '1', tokensBefore: 1 }),
        m('5', null, { role: 'developer', content: 'x' }),
        m('6', null, { role: 'fileMention', files: [] }),
        e('7', null, 'mystery'),
      ),
    );
    expect(out).toEqual([]);
  });

  test('context of a parsed file equals messages of its branch when there is no compaction', () => {
    const s = parse(jsonl(HEADER, u('1', null, 'q'), a('2', '1', [T('r')])));
    expect(context(branch(s))).toEqual(messages(branch(s)));
  });
});
