// A part built entry by entry (part-build.ts) is the part buildPart makes of the same entries, in one
// go or however its documents are batched; and a part built by the builder's side of a real message
// channel (part-jobs.ts: documents posted in batches, the part's bytes transferred back) is that part too.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import fc from 'fast-check';
import { afterEach, expect, test } from 'vitest';
import type { EntryDoc } from '../../../src/worker/search/extract.ts';
import { buildPart } from '../../../src/worker/search/part.ts';
import { createPartBuilder } from '../../../src/worker/search/part-build.ts';
import { answerPartJobs, type PartPort } from '../../../src/worker/search/part-answer.ts';
import { type PartAnswer, type PartRequest, packDocs, packedBuffers, unpackDocs } from '../../../src/worker/search/part-jobs.ts';
import { remoteParts } from '../../../src/worker/search/part-remote.ts';
import { TEXT_UNITS } from './text-units.ts';

const unit = fc.constantFrom(...TEXT_UNITS, 'word', 'Parse', '123456789', ' ', '\n');
const doc = fc.record({
  id: fc.string({ maxLength: 8 }),
  kind: fc.constantFrom('user', 'assistant', 'tool', 'bash', 'label') as fc.Arbitrary<EntryDoc['kind']>,
  ts: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2 ** 42 })),
  flags: fc.integer({ min: 0, max: 7 }),
  model: fc.option(fc.constantFrom('claude', 'gpt-5'), { nil: undefined }),
  // Some texts long enough that chunks (24K characters) close between entries.
  text: fc.oneof(
    fc.array(unit, { maxLength: 40 }).map((p) => p.join('')),
    fc.tuple(unit, fc.integer({ min: 1000, max: 9000 })).map(([u, n]) => `${u} `.repeat(n)),
  ),
  tools: fc.option(fc.array(fc.constantFrom('bash', 'read', 'my_tool'), { minLength: 1, maxLength: 2 }), { nil: undefined }),
});

const bytesOf = (p: { words: string; facts: Uint8Array; texts: Uint8Array }) => ({ words: p.words, facts: [...p.facts], texts: [...p.texts] });

test('property: a part built entry by entry has the bytes buildPart makes of the same entries; documents packed come back whole', () => {
  fc.assert(
    fc.property(fc.array(doc, { maxLength: 30 }), (docs) => {
      const b = createPartBuilder();
      for (const d of docs) b.add(d);
      expect(bytesOf(b.finish())).toEqual(bytesOf(buildPart(docs)));
      // As they cross to a builder worker and back.
      expect(unpackDocs(structuredClone(packDocs(docs)))).toEqual(docs);
    }),
    { numRuns: 150 },
  );
});

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

// The builder's side on one end of a real channel, remoteParts on the other.
function overChannel() {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const posted: PartRequest[] = [];
  const side: PartPort = {
    addEventListener: (type, fn) => type === 'message' && port2.on('message', (data: PartRequest) => fn({ data } as MessageEvent<PartRequest>)),
    postMessage: (answer, transfer) => port2.postMessage(answer, transfer as never),
  };
  // Watched by the channel's end (a browser's builder: by its life lock).
  answerPartJobs(side, Promise.resolve('channel'));
  let watched: () => void = () => undefined;
  const isWatched = new Promise<void>((r) => (watched = r));
  const jobs = remoteParts(() => ({
    post: (request) => {
      posted.push(structuredClone(request));
      port1.postMessage(request, ('docs' in request ? packedBuffers(request.docs) : []) as never);
    },
    listen: (onAnswer) =>
      port1.on('message', (a: PartAnswer) => {
        if ('life' in a) watched();
        onAnswer(a);
      }),
    stop: () => port1.close(),
  }));
  return { jobs, posted, isWatched, send: (m: unknown) => port1.postMessage(m) };
}

test('parts of sessions built at once by the builder side of a channel are each their own buildPart, batches and all', async () => {
  const { jobs, posted, isWatched } = overChannel();
  jobs.open().drop();
  await isWatched;
  const sessions: EntryDoc[][] = [0, 1, 2].map((s) =>
    Array.from({ length: 60 + s * 30 }, (_, i) => ({
      id: `s${s}e${i}`,
      kind: i % 2 ? 'assistant' : 'user',
      ts: i,
      flags: 0,
      text: `session ${s} entry ${i} café 记住 `.repeat(600 + i),
      ...(i % 5 ? {} : { tools: ['read'] }),
    })),
  );
  // Interleaved, as an import's sessions never are but a sync's and an import's could be.
  const open = sessions.map(() => jobs.open());
  const longest = Math.max(...sessions.map((d) => d.length));
  for (let i = 0; i < longest; i++) sessions.forEach((docs, s) => docs[i] && open[s].add(docs[i]));
  const parts = await Promise.all(open.map((j) => j.finish()));
  parts.forEach((p, s) => expect(bytesOf(p)).toEqual(bytesOf(buildPart(sessions[s]))));
  // The documents went over (jobs 1 to 3: job 0 started the builder) in several batches each, not one message per document nor one per session.
  for (let s = 0; s < 3; s++) {
    const batches = posted.filter((r) => r.job === s + 1);
    expect(batches.length).toBeGreaterThan(2);
    expect(batches.length).toBeLessThan(sessions[s].length);
    expect(batches.flatMap((r) => ('docs' in r ? unpackDocs(r.docs) : []))).toEqual(sessions[s]);
  }
});

test('a builder that fails rejects the parts under way, and later parts are built in this worker', async () => {
  let fail: (e: Error) => void = () => undefined;
  let spawned = 0;
  const jobs = remoteParts(() => {
    spawned++;
    return {
      post: () => undefined,
      listen(onAnswer, onFailure) {
        fail = onFailure;
        onAnswer({ life: 'test' });
      },
      stop: () => undefined,
    };
  });
  const docs: EntryDoc[] = [{ id: 'a', kind: 'user', ts: 1, flags: 0, text: 'hello world' }];
  const job = jobs.open();
  job.add(docs[0]);
  const pending = job.finish();
  fail(new Error('gone'));
  await expect(pending).rejects.toThrow('gone');
  const next = jobs.open();
  next.add(docs[0]);
  expect(bytesOf(await next.finish())).toEqual(bytesOf(buildPart(docs)));
  expect(spawned).toBe(1);
});

test('a part whose session ends before its builder is watched is built here, and the builder told to drop it', async () => {
  const posted: PartRequest[] = [];
  // A builder that never says it is watched (it could end unheard): nothing is waited for from it.
  const jobs = remoteParts(() => ({ post: (r) => posted.push(r), listen: () => undefined, stop: () => undefined }));
  const docs: EntryDoc[] = Array.from({ length: 40 }, (_, i) => ({ id: `e${i}`, kind: 'user', ts: i, flags: 0, text: `entry ${i} `.repeat(1000) }));
  const job = jobs.open();
  for (const d of docs) job.add(d);
  expect(bytesOf(await job.finish())).toEqual(bytesOf(buildPart(docs)));
  expect(posted.some((r) => 'docs' in r)).toBe(true);
  expect(posted.at(-1)).toEqual({ job: 0, drop: true });
});

test('a request the builder cannot read is answered broken: its parts under way are refused, later ones built here', async () => {
  const { jobs, isWatched, send } = overChannel();
  jobs.open().drop();
  await isWatched;
  const docs: EntryDoc[] = [{ id: 'a', kind: 'user', ts: 1, flags: 0, text: 'hello world' }];
  const job = jobs.open();
  job.add(docs[0]);
  send({ what: 'not a request' });
  await expect(job.finish()).rejects.toThrow("The search index's builder could not read a request of an unknown shape");
  const next = jobs.open();
  next.add(docs[0]);
  expect(bytesOf(await next.finish())).toEqual(bytesOf(buildPart(docs)));
});
