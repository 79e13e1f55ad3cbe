// pi agrees: a real pi session continued through the host room (a photo, big text attachments, a
// Stop, a cut stream, a model switch, a compaction), then handed to pi 0.73.1's SessionManager:
// its branch holds every new entry, and its buildSessionContext + convertToLlm, sent through the
// same pi-ai provider, give exactly the messages our last request carried, once §0's rules are
// applied where they differ from pi (an aborted or failed turn with text is kept; the compaction
// summary lists the attachments it summarized away).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { appendedEntries, CONTINUED_KINDS, kindOf, openInPi, piAnthropicRequest, piMessagesAt } from '../../host/pi-request.ts';
import { hostSetup, streaming } from './setup.ts';

let open: Awaited<ReturnType<typeof hostSetup>> | null = null;
afterEach(async () => {
  await open?.server.close();
  open = null;
});

const FIXTURE = readFileSync(join(import.meta.dirname, '../../../fixtures/real/xiayongchao-pi-demo-branch.jsonl'), 'utf8');
const ID = '1de66ec6-9538-4997-8b92-a2da416c2dc0';
const anthropic = { provider: 'anthropic-1', model: 'claude-sonnet-4-5' };
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
// 50 KB of text: an attachment of about 12,800 tokens by pi's estimate.
const big = (word: string) => ({ name: `${word}.md`, type: 'text/markdown', blob: new Blob([`${word} `.repeat(51_200 / (word.length + 1))]) });

test('a continued real session reads back in pi with every new entry, and pi would send what we sent', async () => {
  const s = (open = await hostSetup());
  const { server, api } = s;
  await api.importFiles({ files: [new File([FIXTURE], 'demo.jsonl')] });
  const send = (text: string, more: Record<string, unknown> = {}, ctx = streaming().ctx) => api.sendMessage({ id: ID, ...anthropic, text, ...more }, ctx);

  server.script({ kind: 'reply', reply: { thinking: ['Looking.'], signature: 'sig-a', text: ['A small chart.'] } });
  await send('What is this?', { files: [{ name: 'photo.png', type: 'image/png', blob: new Blob([PNG]) }] });
  server.script({ kind: 'slow', reply: { text: ['Reading ', 'the notes', ' in full.'] }, after: 4 });
  const stop = new AbortController();
  const st = streaming(stop.signal);
  const stopped = send('Read these notes', { files: [big('alpha')] }, st.ctx);
  await st.until(() => st.text() === 'Reading ');
  stop.abort();
  expect((await stopped).stopReason).toBe('aborted');
  server.script({ kind: 'cut', reply: { text: ['Half ', 'of it', ' lost'] }, after: 5 });
  expect((await send('And these', { files: [big('beta')] })).stopReason).toBe('error');
  server.script({ kind: 'reply', reply: { text: ['From OpenAI.'], usage: { input: 40_000, output: 10 } } });
  await send('Your view?', { provider: 'openai-1', model: 'gpt-4.1' });
  server.script({ kind: 'reply', reply: { text: ['## Goal\nRead the notes.'] } });
  const compacted = await api.compactSession({ id: ID, provider: 'openai-1', model: 'gpt-4.1' });
  expect(compacted.tokensAfter).toBeLessThan(compacted.tokensBefore);
  server.script({ kind: 'reply', reply: { text: ['Back on Anthropic.'] } });
  await send('Summarize where we are');

  // What the summarizer was asked: pi's prompt around the serialized conversation.
  const summarizing = server.received.at(-2)!;
  expect(JSON.stringify(summarizing.body)).toContain('<conversation>\\n[User]: ');
  expect(JSON.stringify(summarizing.body)).toContain('Create a structured context checkpoint summary');

  const text = new TextDecoder().decode(await s.store.readBytes(ID));
  expect(text.startsWith(FIXTURE)).toBe(true);
  const added = appendedEntries(text, FIXTURE);
  expect(added.map(kindOf)).toEqual(CONTINUED_KINDS);
  const compaction = added[11];
  expect(compaction).toMatchObject({
    method: 'soft',
    fromExtension: false,
    firstKeptEntryId: added[3].id,
    tokensBefore: compacted.tokensBefore,
    tokensAfter: compacted.tokensAfter,
  });

  const { pi, branch } = openInPi(text);
  for (const e of added) expect(branch.has(e.id)).toBe(true);
  expect(pi.buildSessionContext().model).toEqual({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
  // Our last request was made before its reply: pi's context at the message it answered.
  const pis = await piAnthropicRequest(server, piMessagesAt(pi, added[13].id));
  // The summary lists the photo it summarized away.
  expect(JSON.stringify(pis.messages)).toContain(`- photo.png (image/png) at ${added[1].message.attachments[0].path}`);
  const ours = server.received.at(-2)!.body;
  expect(pis.messages).toEqual(ours.messages);
  expect(pis.system).toEqual(ours.system);
  expect(pis.tools).toEqual(ours.tools);
  // The aborted turn and the failed one went to the model with what had arrived.
  expect(JSON.stringify(ours.messages)).toContain('Reading ');
  expect(JSON.stringify(ours.messages)).toContain('Half of it');
});
