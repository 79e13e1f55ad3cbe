import { describe, expect, test } from 'vitest';
import { type hostSetup, useHostSetup, streaming } from './setup.ts';

type Setup = Awaited<ReturnType<typeof hostSetup>>;
const setup = useHostSetup();
const model = { provider: 'anthropic-1', model: 'claude-sonnet-4-5' };

async function started(s: Setup) {
  s.server.script({ kind: 'reply', reply: { text: ['Ready.'] } });
  return s.api.sendMessage({ ...model, text: 'Start' }, streaming().ctx);
}

describe('send: faults', () => {
  test('Stop mid-stream keeps what arrived as an aborted reply; the server saw the request cancelled', async () => {
    const s = await setup();
    const first = await started(s);
    s.server.script({ kind: 'slow', reply: { text: ['Part one, ', 'part two, ', 'part three.'] }, after: 5 });
    const stop = new AbortController();
    const st = streaming(stop.signal);
    const pending = s.api.sendMessage({ id: first.id, ...model, text: 'Go on' }, st.ctx);
    await st.until(() => st.text() === 'Part one, part two, ');
    stop.abort();
    const r = await pending;
    await s.server.until((r) => r[1].cancelled);
    expect(r.stopReason).toBe('aborted');
    const file = await s.entries(first.id);
    const reply = file[file.length - 1].message as Record<string, any>;
    expect(reply).toMatchObject({ role: 'assistant', stopReason: 'aborted', content: [{ type: 'text', text: 'Part one, part two, ' }] });
    expect(file.filter((e) => e.type === 'custom_message')).toEqual([]);
  });

  test('a stream cut mid-message: an error reply with what arrived, its errorMessage, and a loop notice', async () => {
    const s = await setup();
    const first = await started(s);
    s.server.script({ kind: 'cut', reply: { text: ['Half ', 'an answer', ' never ends'] }, after: 5 });
    const r = await s.api.sendMessage({ id: first.id, ...model, text: 'Tell me' }, streaming().ctx);
    expect(r.stopReason).toBe('error');
    const file = await s.entries(first.id);
    const [reply, notice] = file.slice(-2);
    expect(reply.message).toMatchObject({ stopReason: 'error', errorMessage: expect.any(String), content: [{ type: 'text', text: 'Half an answer' }] });
    expect(notice).toMatchObject({ type: 'custom_message', customType: 'rho.error', display: true, parentId: reply.id });
    expect(String(notice.content)).toContain((reply.message as any).errorMessage);
  });

  test('429 with retry-after is retried and then answered; 500s before any byte write nothing and say so', async () => {
    const s = await setup();
    const first = await started(s);
    s.server.script({ kind: 'status', status: 429, retryAfter: 0, message: 'Rate limited' }, { kind: 'reply', reply: { text: ['After the wait.'] } });
    const r = await s.api.sendMessage({ id: first.id, ...model, text: 'Again' }, streaming().ctx);
    expect(s.server.received.length).toBe(3);
    expect(r.stopReason).toBe('stop');
    const before = await s.store.readBytes(first.id);
    s.server.script(...Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 500, retryAfter: 0, message: 'Overloaded' })));
    await expect(s.api.sendMessage({ id: first.id, ...model, text: 'Lost?' }, streaming().ctx)).rejects.toMatchObject({
      code: 'provider',
      message: expect.stringMatching(/Nothing was written; your message is kept/),
    });
    expect(await s.store.readBytes(first.id)).toEqual(before);
  });

  test('offline (nothing listening): nothing written, the draft stays with the page', async () => {
    const s = await setup();
    const first = await started(s);
    const before = await s.store.readBytes(first.id);
    await s.server.close();
    await expect(s.api.sendMessage({ id: first.id, ...model, text: 'Anyone?' }, streaming().ctx)).rejects.toMatchObject({ code: 'provider' });
    expect(await s.store.readBytes(first.id)).toEqual(before);
  });
});

describe('the other protocols', () => {
  test('Google streaming and OpenAI Chat Completions replies are written with their api and usage', async () => {
    const s = await setup();
    s.server.script(
      { kind: 'reply', reply: { text: ['Gem', 'ini'], usage: { input: 100, output: 10 } } },
      { kind: 'reply', reply: { text: ['Gro', 'q'], usage: { input: 50, output: 5 } } },
    );
    const g = await s.api.sendMessage({ provider: 'google-1', model: 'gemini-2.5-flash', text: 'Hi Gemini' }, streaming().ctx);
    expect(s.server.received[0].provider).toBe('google');
    expect(s.server.received[0].headers['x-goog-api-key']).toBe('goog-test');
    await s.api.sendMessage({ id: g.id, provider: 'groq-1', model: 'llama-3.1-8b-instant', text: 'Hi Groq' }, streaming().ctx);
    expect(s.server.received[1].body).toMatchObject({ model: 'llama-3.1-8b-instant', stream: true });
    const replies = (await s.entries(g.id)).filter((e) => (e.message as any)?.role === 'assistant').map((e) => e.message as any);
    expect(replies.map((m) => [m.api, m.provider, m.model, m.content[0].text, m.usage.input, m.usage.output])).toEqual([
      ['google-generative-ai', 'google', 'gemini-2.5-flash', 'Gemini', 100, 10],
      ['openai-completions', 'groq', 'llama-3.1-8b-instant', 'Groq', 50, 5],
    ]);
  });
});
