/**
 * Small hand-shaped files for the reading rules of session-format.md §0.1/§0.2 and §6: torn tails,
 * blank and CRLF lines, duplicate ids, orphans, cycles, id-less last records, non-object lines,
 * future versions, raw U+2028/U+2029/U+0085, v1/v2 migration, missing or misplaced headers.
 * Each is a pure function of nothing, so the committed files are reproducible.
 */

const T = '2026-01-01T10:00:00.000Z';
const header = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'session', version: 3, id: '01a22bfc-0000-7000-8000-000000000001', timestamp: T, cwd: '/home/dev/p', ...extra });
const user = (id: string, parentId: string | null, text: string) =>
  JSON.stringify({ type: 'message', id, parentId, timestamp: T, message: { role: 'user', content: text, timestamp: 1767261600000 } });
const reply = (id: string, parentId: string | null, text: string) =>
  JSON.stringify({
    type: 'message',
    id,
    parentId,
    timestamp: T,
    message: {
      role: 'assistant',
      content: [{ type: 'text', text }],
      api: 'anthropic-messages',
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: 'stop',
      timestamp: 1767261601000,
    },
  });
const mc = (id: string, parentId: string | null) =>
  JSON.stringify({ type: 'model_change', id, parentId, timestamp: T, provider: 'anthropic', modelId: 'claude-sonnet-4-5' });

/** name → file text. */
export function edgeCaseFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const base = [header(), mc('a0000001', null), user('a0000002', 'a0000001', 'hello'), reply('a0000003', 'a0000002', 'hi there')];

  files['edge-torn-tail'] = [...base, user('a0000004', 'a0000003', 'next')].join('\n').slice(0, -25);
  files['edge-blank-crlf'] =
    ['', '   ', header() + '\r', mc('a0000001', null), '', user('a0000002', 'a0000001', 'hello') + '\r', '\t', reply('a0000003', 'a0000002', 'hi')].join('\n') +
    '\n\n';
  files['edge-duplicate-ids'] =
    [...base, user('a0000002', 'a0000001', 'hello again (duplicate id, wins)'), reply('a0000005', 'a0000002', 'answer to the duplicate')].join('\n') + '\n';
  files['edge-missing-parent'] = [...base, user('a0000004', 'ffff0000', 'orphan user'), reply('a0000005', 'a0000004', 'orphan reply')].join('\n') + '\n';
  files['edge-cycle'] =
    [
      header(),
      user('c0000001', 'c0000003', 'one'),
      reply('c0000002', 'c0000001', 'two'),
      user('c0000003', 'c0000002', 'three'),
      reply('c0000004', 'c0000004', 'self-parented'),
    ].join('\n') + '\n';
  files['edge-cycle-leaf'] =
    [header(), user('c0000001', 'c0000003', 'one'), reply('c0000002', 'c0000001', 'two'), user('c0000003', 'c0000002', 'three')].join('\n') + '\n';
  files['edge-idless-last'] = [...base, JSON.stringify({ type: 'custom', customType: 'no-id-here', data: {} })].join('\n') + '\n';
  files['edge-non-object'] =
    [
      header(),
      'null',
      '123',
      '[1,2]',
      '"text"',
      mc('a0000001', null) + ' ' + mc('a0000009', null),
      'true',
      mc('a0000001', null),
      '{"type":"message",',
      user('a0000002', 'a0000001', 'after the junk'),
      '{}',
      '{"type":"weird-future-type","id":"a0000003","parentId":"a0000002","timestamp":"' + T + '","x":[1,{"y":null}]}',
    ].join('\n') + '\n';
  files['edge-future-version'] =
    [
      header({ version: 4, futureField: { a: 1 } }),
      mc('a0000001', null),
      user('a0000002', 'a0000001', 'from the future'),
      JSON.stringify({ type: 'hologram', id: 'a0000003', parentId: 'a0000002', timestamp: T }),
    ].join('\n') + '\n';
  files['edge-unicode-separators'] =
    [
      header(),
      mc('a0000001', null),
      user('a0000002', 'a0000001', 'line\u2028sep para\u2029sep nel\u0085 and \r\n escaped, emoji 🎉 and lone-ish \ud7ff'),
      reply('a0000003', 'a0000002', 'ok\u2028'),
    ].join('\n') + '\n';
  files['edge-v2-hookmessage'] =
    [
      JSON.stringify({ type: 'session', version: 2, id: '01a22bfc-0000-7000-8000-000000000002', timestamp: T, cwd: '/p' }),
      user('b0000001', null, 'v2 file'),
      JSON.stringify({
        type: 'message',
        id: 'b0000002',
        parentId: 'b0000001',
        timestamp: T,
        message: { role: 'hookMessage', customType: 'hook', content: 'from a hook', display: true, timestamp: 1767261600000 },
      }),
      reply('b0000003', 'b0000002', 'seen'),
    ].join('\n') + '\n';
  const v1user = (text: string) => JSON.stringify({ type: 'message', timestamp: T, message: { role: 'user', content: text, timestamp: 1767261600000 } });
  const v1reply = (text: string) =>
    JSON.stringify({
      type: 'message',
      timestamp: T,
      message: {
        role: 'assistant',
        content: [{ type: 'text', text }],
        api: 'anthropic-messages',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: 'stop',
        timestamp: 1767261600000,
      },
    });
  files['edge-v1-compaction'] =
    [
      JSON.stringify({ type: 'session', id: 'v1-session', timestamp: T, cwd: '/p', provider: 'anthropic', modelId: 'claude-sonnet-4-5', thinkingLevel: 'off' }),
      v1user('first'),
      v1reply('first answer'),
      v1user('second'),
      v1reply('second answer'),
      JSON.stringify({ type: 'compaction', timestamp: T, summary: 'They talked twice.', firstKeptEntryIndex: 3, tokensBefore: 1234 }),
      v1user('third'),
      v1reply('third answer'),
    ].join('\n') + '\n';
  files['edge-no-header'] = [mc('a0000001', null), user('a0000002', 'a0000001', 'no header here')].join('\n') + '\n';
  files['edge-header-not-first'] = [mc('a0000001', null), header(), user('a0000002', 'a0000001', 'header came second')].join('\n') + '\n';
  files['edge-empty'] = '';
  return files;
}
