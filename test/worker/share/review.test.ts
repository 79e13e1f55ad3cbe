// The review finds every planted secret wherever it sits, and a redacted copy holds none of them
// in its raw bytes (JSONL, Markdown, a Markdown zip unzipped, an age copy decrypted); the stored
// session is byte for byte what was imported.
import { unzipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { Decrypter } from 'age-encryption';
import { createApi } from '../../../src/worker/api.ts';
import { memoryStore } from '../../storage/helpers.ts';
import { corpus, needles } from './corpus.ts';

function setup() {
  const { store } = memoryStore({ now: () => 1_700_000_000_000 });
  return createApi({ store, now: () => new Date('2026-04-02T00:00:00.000Z'), randomId: () => 'abcdef01' });
}

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
const textOf = async (blob: Blob) => new TextDecoder().decode(await bytesOf(blob));
const { text, plants } = corpus();

async function imported() {
  const api = setup();
  const report = await api.importFiles({ files: [new File([text], 'corpus.jsonl')] });
  expect(report.items[0]).toMatchObject({ outcome: 'added', id: 'corpus-1' });
  return api;
}

function leaks(output: string): string[] {
  return needles(plants).filter((n) => output.includes(n));
}

describe('review of planted secrets', () => {
  test('every planted value is found, in user text, thinking, tool arguments and tool output', async () => {
    const api = await imported();
    const review = await api.reviewShare({ id: 'corpus-1', scope: 'session' });
    for (const p of plants) {
      for (const where of ['user message', 'thinking', 'tool call', 'tool output'] as const) {
        const covering = review.hits.filter(
          (h) =>
            h.where === where &&
            p.kinds.includes(h.kind) &&
            h.before.length >= 0 &&
            (h.match.includes(p.value.slice(0, 30)) || p.value.startsWith(h.match.slice(0, 30))),
        );
        expect(covering.length, `${p.name} in ${where}`).toBeGreaterThan(0);
      }
    }
    // Secrets come from secretlint's rules, each named by its rule.
    const aws = review.hits.find((h) => h.kind === 'aws');
    expect(aws?.rule).toBe('@secretlint/secretlint-rule-aws');
    // The user names of the home paths are found on their own too (in the e-mail's surroundings, the compaction).
    expect(review.counts['user-name']).toBeGreaterThan(0);
    expect(review.hits.some((h) => h.kind === 'home-path' && h.where === 'header')).toBe(true);
  });

  test('after redaction no planted value is anywhere in the cleaned JSONL, and the store is unchanged', async () => {
    const api = await imported();
    const out = await api.exportShared({ id: 'corpus-1', format: 'jsonl', scope: 'session' });
    const cleaned = await textOf(out.blob);
    expect(leaks(cleaned)).toEqual([]);
    expect(cleaned).toContain('[redacted: aws]');
    expect(cleaned).toContain('[redacted: home-path]/work/app');
    expect(out.stats.redacted).toBeGreaterThan(plants.length * 4);
    expect(await textOf((await api.exportSession({ id: 'corpus-1' })).blob)).toBe(text);
  });

  test('a hit turned off stays in the copy, a kind turned off keeps all of its hits, the rest are still redacted', async () => {
    const api = await imported();
    const review = await api.reviewShare({ id: 'corpus-1', scope: 'session' });
    const github = review.hits.find((h) => h.kind === 'github' && h.where === 'user message');
    expect(github).toBeDefined();
    const out = await api.exportShared({ id: 'corpus-1', format: 'jsonl', scope: 'session', choice: { off: [github!.id], kindsOff: ['ip-address'] } });
    const cleaned = await textOf(out.blob);
    const token = plants.find((p) => p.name === 'GitHub token')!.value;
    expect(cleaned.split(token).length - 1).toBe(1);
    expect(cleaned).toContain('10.41.7.203');
    expect(leaks(cleaned).sort()).toEqual([token, '10.41.7.203'].sort());
  });

  test('Markdown (full, thinking shown) and its zip hold no planted value; an age copy decrypts to the same', async () => {
    const api = await imported();
    const md = await api.exportShared({ id: 'corpus-1', format: 'markdown', scope: 'session', markdown: { mode: 'full', thinking: true, images: 'files' } });
    expect(md.name).toMatch(/\.md$/);
    const markdown = await textOf(md.blob);
    expect(markdown).toContain('<details><summary>Thinking</summary>');
    expect(leaks(markdown)).toEqual([]);
    const sealed = await api.exportShared({
      id: 'corpus-1',
      format: 'markdown',
      scope: 'session',
      markdown: { mode: 'full', thinking: true, images: 'files' },
      passphrase: 'correct horse',
      // A low scrypt work factor (2^10): what the copy holds is tested here, age's default in age.test.ts.
      workFactor: 10,
    });
    expect(sealed.name).toMatch(/\.md\.age$/);
    expect(new TextDecoder().decode((await bytesOf(sealed.blob)).slice(0, 200))).toMatch(/\n-> scrypt \S+ 10\n/);
    const d = new Decrypter();
    d.addPassphrase('correct horse');
    expect(await d.decrypt(await bytesOf(sealed.blob), 'text')).toBe(markdown);
  });

  test('a Markdown zip with an image: unzipped, no entry holds a planted value', async () => {
    const api = setup();
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex').toString('base64');
    const withImage = text.replace('{"type":"text","text":"Step 0:', `{"type":"image","data":"${png}","mimeType":"image/png"},{"type":"text","text":"Step 0:`);
    await api.importFiles({ files: [new File([withImage], 'corpus.jsonl')] });
    const out = await api.exportShared({ id: 'corpus-1', format: 'markdown', scope: 'session', markdown: { mode: 'full', thinking: true, images: 'files' } });
    expect(out.name).toMatch(/\.zip$/);
    const files = unzipSync(await bytesOf(out.blob));
    expect(Object.keys(files).sort()).toEqual(['images/image-1.png', out.name.replace(/\.zip$/, '.md')].sort());
    expect(Buffer.from(files['images/image-1.png']).toString('base64')).toBe(png);
    for (const [name, data] of Object.entries(files)) expect(leaks(new TextDecoder().decode(data)), name).toEqual([]);
  });
});

describe('the HTML page through its adapter', () => {
  test('offered only when html-page.ts is in the build; then it gets the cleaned session, else the call says it is missing', async () => {
    const { hasHtmlPage } = await import('../../../src/worker/share/html-adapter.ts');
    const api = await imported();
    const { formats } = await api.shareFormats({});
    expect(formats.includes('html')).toBe(hasHtmlPage());
    const made = api.exportShared({ id: 'corpus-1', format: 'html', scope: 'session' });
    if (!hasHtmlPage()) return expect(made).rejects.toMatchObject({ code: 'unsupported' });
    const page = await made;
    expect(page.name).toMatch(/\.html$/);
    expect(page.blob.type).toBe('text/html');
    // The page carries the session compressed; its own tests decode it. Here: no planted value in the raw bytes.
    expect(leaks(await textOf(page.blob))).toEqual([]);
  });
});
