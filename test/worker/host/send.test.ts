import { describe, expect, test } from 'vitest';
import { SYSTEM_PROMPT } from '../../../src/worker/host/request.ts';
import { useHostSetup, KEY, streaming } from './setup.ts';

const setup = useHostSetup();

// Anthropic's wire text of a message (string content or text blocks).
const wireText = (m: { content: unknown }) =>
  typeof m.content === 'string'
    ? m.content
    : (m.content as Array<{ type: string; text?: string }>)
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join('|');

describe('send: a new chat with Anthropic', () => {
  test('writes header (titled from the message), model_change, user and the reply in pi’s shape; the provider got the key, the system prompt and the message', async () => {
    const { server, api, entries } = await setup();
    server.script({
      kind: 'reply',
      reply: { thinking: ['Let me ', 'think.'], signature: 'sig-1', text: ['Hello', ' there!'], usage: { input: 1000, output: 200 } },
    });
    const s = streaming();
    const r = await api.sendMessage({ provider: 'anthropic-1', model: 'claude-sonnet-4-5', text: 'What changed?\nSecond line' }, s.ctx);
    expect(s.text()).toBe('Hello there!');
    expect(s.deltas.filter((d) => d.kind === 'thinking').map((d) => d.delta)).toEqual(['Let me ', 'think.']);

    const req = server.received[0];
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(JSON.stringify(req.body.system)).toContain(JSON.stringify(SYSTEM_PROMPT).slice(1, -1));
    expect((req.body.messages as Array<{ role: string; content: unknown }>).map((m) => [m.role, wireText(m)])).toEqual([
      ['user', 'What changed?\nSecond line'],
    ]);
    expect(req.body.tools).toBeUndefined();

    const file = await entries(r.id);
    expect(file.map((e) => e.type)).toEqual(['model_change', 'message', 'message']);
    expect(file[0]).toMatchObject({ model: 'anthropic/claude-sonnet-4-5', provider: 'anthropic', modelId: 'claude-sonnet-4-5', parentId: null });
    const reply = file[2].message as Record<string, any>;
    expect(reply).toMatchObject({ role: 'assistant', api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop' });
    expect(reply.content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', thinkingSignature: 'sig-1' },
      { type: 'text', text: 'Hello there!' },
    ]);
    // $3 / $15 per million tokens (pi-ai's table for claude-sonnet-4-5).
    expect(reply.usage).toMatchObject({ input: 1000, output: 200, cacheRead: 0, cacheWrite: 0, totalTokens: 1200 });
    expect(reply.usage.cost.total).toBeCloseTo((1000 * 3 + 200 * 15) / 1e6, 12);
    expect(r.replyCost).toBeCloseTo(0.006, 12);
    expect(r.totals.cost).toBeCloseTo(0.006, 12);
    const summary = (await api.listSessions({})).find((x) => x.id === r.id);
    expect(summary?.title).toBe('What changed?');
    expect(r.leafId).toBe(file[2].id);
  });

  test('continuing sends the branch; a switch of model writes a model_change and the old turns go to the new provider', async () => {
    const { server, api, entries } = await setup();
    server.script({ kind: 'reply', reply: { thinking: ['hmm'], text: ['First answer.'] } });
    const first = await api.sendMessage({ provider: 'anthropic-1', model: 'claude-sonnet-4-5', text: 'One' }, streaming().ctx);
    server.script({ kind: 'reply', reply: { text: ['Second', ' answer.'] } });
    const second = await api.sendMessage({ id: first.id, provider: 'openai-1', model: 'gpt-4.1', text: 'Two' }, streaming().ctx);
    expect(second.id).toBe(first.id);
    const [system, ...input] = server.received[1].body.input as Array<Record<string, any>>;
    expect(system).toMatchObject({ role: 'system', content: SYSTEM_PROMPT });
    expect(server.received[1].provider).toBe('openai-responses');
    expect(server.received[1].headers.authorization).toBe('Bearer sk-openai-test');
    const texts = input.map((i) => [i.role ?? i.type, JSON.stringify(i.content)]);
    expect(texts[0][1]).toContain('One');
    // Another model's thinking goes as text (pi-ai's cross-model rule), after it the reply.
    expect(JSON.stringify(input)).toContain('First answer.');
    expect(texts[texts.length - 1][1]).toContain('Two');
    const file = await entries(first.id);
    expect(file.map((e) => e.type)).toEqual(['model_change', 'message', 'message', 'model_change', 'message', 'message']);
    expect(file[3]).toMatchObject({ model: 'openai/gpt-4.1', provider: 'openai', modelId: 'gpt-4.1', parentId: file[2].id });
    expect(file[5].message).toMatchObject({
      api: 'openai-responses',
      provider: 'openai',
      model: 'gpt-4.1',
      stopReason: 'stop',
      content: [expect.objectContaining({ type: 'text', text: 'Second answer.' })],
    });
  });

  test('continue from an earlier entry makes a branch there', async () => {
    const { server, api, entries } = await setup();
    server.script({ kind: 'reply', reply: { text: ['A1'] } }, { kind: 'reply', reply: { text: ['A2'] } }, { kind: 'reply', reply: { text: ['B2'] } });
    const a = await api.sendMessage({ provider: 'anthropic-1', model: 'claude-sonnet-4-5', text: 'Q1' }, streaming().ctx);
    await api.sendMessage({ id: a.id, provider: 'anthropic-1', model: 'claude-sonnet-4-5', text: 'Q2' }, streaming().ctx);
    const b = await api.sendMessage({ id: a.id, leafId: a.leafId, provider: 'anthropic-1', model: 'claude-sonnet-4-5', text: 'Q2 again' }, streaming().ctx);
    const msgs = server.received[2].body.messages as Array<{ role: string; content: unknown }>;
    expect(msgs.map((m) => wireText(m))).toEqual(['Q1', 'A1', 'Q2 again']);
    const file = await entries(a.id);
    const q2again = file.find((e) => (e.message as any)?.content?.[0]?.text === 'Q2 again');
    expect(q2again?.parentId).toBe(a.leafId);
    expect(b.leafId).toBe(file[file.length - 1].id);
  });
});

describe('send: what the model may not do here', () => {
  test('a tool call the model makes anyway gets a result saying it cannot run on this device; history tools are listed', async () => {
    const { server, api, entries } = await setup();
    server.script({ kind: 'reply', reply: { text: ['Reading it.'], toolCall: { id: 'toolu_01A', name: 'read', json: ['{"path":', '"src/a.ts"}'] } } });
    const r = await api.sendMessage({ provider: 'anthropic-1', model: 'claude-sonnet-4-5', text: 'Open a.ts' }, streaming().ctx);
    const file = await entries(r.id);
    const reply = file[2].message as Record<string, any>;
    expect(reply.stopReason).toBe('toolUse');
    expect(reply.content[1]).toEqual({ type: 'toolCall', id: 'toolu_01A', name: 'read', arguments: { path: 'src/a.ts' } });
    const result = file[3].message as Record<string, any>;
    expect(result).toMatchObject({ role: 'toolResult', toolCallId: 'toolu_01A', toolName: 'read', isError: true });
    expect(result.content[0].text).toMatch(/cannot run on this device/);
    server.script({ kind: 'reply', reply: { text: ['OK.'] } });
    await api.sendMessage({ id: r.id, provider: 'anthropic-1', model: 'claude-sonnet-4-5', text: 'Fine' }, streaming().ctx);
    const body = server.received[1].body as Record<string, any>;
    expect(body.tools.map((t: { name: string }) => t.name)).toEqual(['read']);
    const kinds = body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content.map((c: any) => `${m.role}:${c.type}`) : [`${m.role}:text`]));
    expect(kinds).toEqual(['user:text', 'assistant:text', 'assistant:tool_use', 'user:tool_result', 'user:text']);
  });

  test('a picture goes to a model that takes pictures; a model without them gets pi’s note and the path', async () => {
    const { server, api, entries, disk } = await setup();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const files = [{ name: 'photo.png', type: 'image/png', blob: new Blob([png]) }];
    server.script({ kind: 'reply', reply: { text: ['A chart.'] } }, { kind: 'reply', reply: { text: ['No pictures here.'] } });
    const r = await api.sendMessage({ provider: 'anthropic-1', model: 'claude-sonnet-4-5', text: 'Look', files }, streaming().ctx);
    const blocks = (server.received[0].body.messages as any[])[0].content;
    expect(blocks.map((b: any) => b.type)).toEqual(['text', 'text', 'image']);
    expect(blocks[2].source).toMatchObject({ type: 'base64', media_type: 'image/png', data: Buffer.from(png).toString('base64') });
    const user = (await entries(r.id))[1].message as Record<string, any>;
    const path = user.attachments[0].path as string;
    expect(user.attachments[0]).toMatchObject({ kind: 'image', name: 'photo.png', mimeType: 'image/png' });
    expect(blocks[1].text).toBe(`<attachment name="photo.png" type="image/png" path="${path}">\n${user.attachments[0].about}\n</attachment>`);
    expect(await disk.read(path, 0, png.length)).toEqual(png);
    await api.sendMessage({ id: r.id, provider: 'groq-1', model: 'llama-3.1-8b-instant', text: 'And now?' }, streaming().ctx);
    const chat = server.received[1].body.messages as any[];
    const first = JSON.stringify(chat.find((m) => m.role === 'user'));
    expect(first).toContain('(image omitted: model does not support images)');
    expect(first).toContain(path);
    expect(first).not.toContain(Buffer.from(png).toString('base64'));
  });

  test('a PDF goes to no model, as pi-ai 0.73.1 declares none that takes PDFs: Anthropic and OpenAI get its path and its line, never its bytes', async () => {
    const { getProviders, getModels } = await import('@mariozechner/pi-ai');
    const inputs = getProviders().flatMap((p) => getModels(p).map((m) => m.input as string[]));
    expect(inputs.length).toBeGreaterThan(0);
    expect(inputs.some((i) => i.includes('pdf'))).toBe(false);

    const { server, api, entries, disk } = await setup();
    const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    const files = [{ name: 'report.pdf', type: 'application/pdf', blob: new Blob([pdf]) }];
    server.script({ kind: 'reply', reply: { text: ['A report.'] } }, { kind: 'reply', reply: { text: ['Still a report.'] } });
    const r = await api.sendMessage({ provider: 'anthropic-1', model: 'claude-sonnet-4-5', text: 'Read this', files }, streaming().ctx);
    const user = (await entries(r.id))[1].message as Record<string, any>;
    const a = user.attachments[0];
    expect(a).toMatchObject({ kind: 'pdf', name: 'report.pdf', mimeType: 'application/pdf' });
    expect(a.about).toMatch(/^A PDF \(\d+ B\), attached 2026-03-04 05:06 UTC\.$/);
    expect(await disk.read(a.path)).toEqual(pdf);
    const note = `<attachment name="report.pdf" type="application/pdf" path="${a.path}">\n${a.about}\n</attachment>`;
    const blocks = (server.received[0].body.messages as any[])[0].content;
    expect(blocks.map((b: any) => [b.type, b.text])).toEqual([
      ['text', 'Read this'],
      ['text', note],
    ]);
    await api.sendMessage({ id: r.id, provider: 'openai-1', model: 'gpt-4.1', text: 'And you?' }, streaming().ctx);
    const sent = JSON.stringify(server.received[1].body);
    expect(sent).toContain(JSON.stringify(note).slice(1, -1));
    expect(sent).not.toContain(Buffer.from(pdf).toString('base64'));
    expect(sent).not.toMatch(/input_file|"file_data"|application\/pdf;base64/);
  });
});

describe('Models keys', () => {
  test('the page gets providers without their keys; a key is kept when a provider is changed without one', async () => {
    const { api, keys } = await setup();
    const views = await api.modelProviders({});
    expect(JSON.stringify(views)).not.toContain(KEY);
    expect(views[0]).toEqual({ id: 'anthropic-1', provider: 'anthropic', hasKey: true, baseUrl: expect.any(String), models: ['claude-sonnet-4-5'] });
    await api.saveModelProvider({ id: 'anthropic-1', provider: 'anthropic', models: ['claude-sonnet-4-5', 'claude-opus-4-1'] });
    expect((await keys.list())[0]).toMatchObject({ apiKey: KEY, models: ['claude-sonnet-4-5', 'claude-opus-4-1'] });
    await expect(api.saveModelProvider({ provider: 'openai-compatible', models: ['llama3'] })).rejects.toThrow(/Base URL/);
    const local = await api.saveModelProvider({ provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1/', models: ['llama3'] });
    expect(local[local.length - 1]).toMatchObject({ provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', hasKey: false });
    await expect(api.saveModelProvider({ provider: 'openai-compatible', baseUrl: 'http://user:pw@host/v1', models: ['x'] })).rejects.toThrow(/API key/);
    expect((await api.providerModels({ provider: 'anthropic' })).some((m) => m.id === 'claude-sonnet-4-5' && m.images)).toBe(true);
  });
});
