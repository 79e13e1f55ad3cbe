// A small session made for the reader's UX specs: hidden find targets (closed thinking, the tail of
// a long tool output), a signature-only thinking block, two pictures, a long model name, a notice
// and an error card, and entries to label.
import { crc32, deflateSync } from 'node:zlib';

/** A PNG of one colour (real bytes the browser decodes, of the size the test needs). */
export function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const head = Buffer.alloc(13);
  head.writeUInt32BE(width, 0);
  head.writeUInt32BE(height, 4);
  head.writeUInt8(8, 8); // bit depth
  head.writeUInt8(2, 9); // RGB
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', head), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The session's id and entry ids the specs use. */
export const UX = {
  id: '0193a5c2-0000-7000-8000-0000000aa001',
  title: 'Reader UX checks',
  user: 'ux000001',
  assistant: 'ux000002',
  result: 'ux000003',
  pictures: 'ux000004',
  reply: 'ux000005',
  notice: 'ux000006',
  error: 'ux000007',
  last: 'ux000008',
  /** A long model name (`#N` must stay beside it at 360 px). */
  model: 'claude-3-7-sonnet-20250219-extended-thinking-preview',
};

/** The session's JSONL text. */
export function uxSession(): string {
  const t = (s: number) => `2026-11-30T10:00:${String(s).padStart(2, '0')}.000Z`;
  const output = Array.from({ length: 30 }, (_, i) => (i === 24 ? 'line 25: the wombat is here' : `line ${i + 1}`)).join('\n');
  const assistant = (content: unknown[]) => ({
    role: 'assistant',
    content,
    api: 'anthropic-messages',
    provider: 'anthropic',
    model: UX.model,
    stopReason: 'stop',
    usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { total: 0.001 } },
    timestamp: 2,
  });
  const entries: Array<Record<string, unknown>> = [
    { type: 'session', version: 3, id: UX.id, timestamp: t(0), cwd: '/home/test/ux', title: UX.title },
    {
      type: 'message',
      id: UX.user,
      parentId: null,
      timestamp: t(1),
      message: { role: 'user', content: [{ type: 'text', text: 'Look at the logs please.' }], timestamp: 1 },
    },
    {
      type: 'message',
      id: UX.assistant,
      parentId: UX.user,
      timestamp: t(2),
      message: assistant([
        { type: 'thinking', thinking: 'The quokka hides in the thinking.', thinkingSignature: 'sig-a' },
        { type: 'thinking', thinking: '', thinkingSignature: 'EqQBCkgIARABGAIiQL1c2xZ4signature-only' },
        { type: 'text', text: 'Reading them.' },
        { type: 'toolCall', id: 'call_1', name: 'bash', arguments: { command: 'cat log.txt' } },
      ]),
    },
    {
      type: 'message',
      id: UX.result,
      parentId: UX.assistant,
      timestamp: t(3),
      message: { role: 'toolResult', toolCallId: 'call_1', toolName: 'bash', content: [{ type: 'text', text: output }], isError: false, timestamp: 3 },
    },
    {
      type: 'message',
      id: UX.pictures,
      parentId: UX.result,
      timestamp: t(4),
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'Two pictures of the tide.' },
          { type: 'image', data: png(1400, 900, [200, 40, 40]).toString('base64'), mimeType: 'image/png' },
          { type: 'image', data: png(300, 200, [40, 40, 200]).toString('base64'), mimeType: 'image/png' },
        ],
        timestamp: 4,
      },
    },
    { type: 'message', id: UX.reply, parentId: UX.pictures, timestamp: t(5), message: assistant([{ type: 'text', text: 'Nice pictures.' }]) },
    {
      type: 'custom_message',
      customType: 'rho.notice',
      content: 'A notice: context is at 40%.',
      display: true,
      id: UX.notice,
      parentId: UX.reply,
      timestamp: t(6),
    },
    {
      type: 'custom_message',
      customType: 'rho.error',
      content: 'An error: the provider failed.',
      display: true,
      id: UX.error,
      parentId: UX.notice,
      timestamp: t(7),
    },
    {
      type: 'message',
      id: UX.last,
      parentId: UX.error,
      timestamp: t(8),
      message: { role: 'user', content: [{ type: 'text', text: 'Thanks, that is all.' }], timestamp: 8 },
    },
  ];
  return entries.map((e) => JSON.stringify(e)).join('\n') + '\n';
}
