// The one-file page as bytes (Node): its payload (chunks + index, page-payload.ts) unpacks to exactly the session's bytes (and, with
// a passphrase, is an age file only the passphrase opens, as `age -d` reads it); its CSP hashes
// are those of its one inline script and style (which runs the page's compressed script); nothing from the session can close a <script> element;
// and exportHtml gives the stored bytes or the branch's. The page in a browser: test/e2e/share-page.spec.ts.
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { Decrypter } from 'age-encryption';
import { beforeAll, describe, expect, test } from 'vitest';
import { fromBase85 } from '../../../src/core/share/base85.ts';
import { createApi } from '../../../src/worker/api.ts';
import { buildHtmlPage } from '../../../src/worker/share/html-page.ts';
import { openPayload } from '../../../src/worker/share/page-payload.ts';
import { PART_BYTES, type SharePageAssets, type SharePageMeta } from '../../../src/worker/share/page-template.ts';
import { buildSharePageAssets } from '../../../vite.share-page.ts';
import { headerLine, memoryStore, messageLine } from '../../storage/helpers.ts';

let assets: SharePageAssets;
beforeAll(async () => {
  assets = await buildSharePageAssets();
}, 120_000);

const encoder = new TextEncoder();

/** The pieces of a page: CSP, meta, its one executable script, style, and the payload joined from its parts. */
function readPage(html: string) {
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1];
  const meta = JSON.parse(/<script type="application\/json" id="rho-meta">([^<]*)<\/script>/.exec(html)![1]) as SharePageMeta;
  const parts = [...html.matchAll(/<script type="application\/x-rho-part" class="rho-part">([^<]*)<\/script>/g)].map((m) => Buffer.from(fromBase85(m[1])));
  const boot = /<script>([\s\S]*?)<\/script>\n/.exec(html)![1];
  const script = gunzipSync(fromBase85(/<script type="application\/x-rho-script" id="rho-script">([^<]*)<\/script>/.exec(html)![1])).toString();
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
  return { csp, meta, parts, payload: Buffer.concat(parts), boot, script, style };
}

/** The session inside a page's payload, read back as the page's worker reads it. */
const unpack = (payload: Uint8Array) => {
  const p = openPayload(new Uint8Array(payload));
  return p.read(0, p.size);
};
const unpackText = (payload: Uint8Array) => new TextDecoder().decode(unpack(payload));

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
const pageText = async (blob: Blob) => new TextDecoder().decode(new Uint8Array(await blob.arrayBuffer()));

function session(id: string, n: number, extra = ''): string {
  const lines = [headerLine(id)];
  for (let i = 1; i <= n; i++) lines.push(messageLine(`e${i}`, i === 1 ? null : `e${i - 1}`, i % 2 ? 'user' : 'assistant', `message ${i} ${extra}`));
  return lines.join('\n') + '\n';
}

describe('buildHtmlPage', () => {
  test('the payload holds the exact bytes, in parts of PART_BYTES; the CSP allows only the page’s own script and style', async () => {
    // Incompressible text so the payload needs several parts.
    const noise = Array.from({ length: 8000 }, (_, i) => ((i * 2654435761) >>> 0).toString(36)).join('');
    const bytes = encoder.encode(session('s1', 30, noise));
    const html = await pageText(await buildHtmlPage(bytes, { title: 'T', leafId: 'e7' }, assets));
    const { csp, meta, parts, payload, boot, script, style } = readPage(html);
    expect(parts.length).toBeGreaterThan(1);
    // The script runs before the parser reaches the parts (it hands each to the worker as it is
    // parsed): after the meta and worker blocks it reads, before the first part.
    const at = (text: string) => html.indexOf(text);
    expect(at('id="rho-meta"')).toBeLessThan(at('<script>'));
    expect(at('id="rho-worker"')).toBeLessThan(at('<script>'));
    expect(at('id="rho-script"')).toBeLessThan(at('<script>'));
    expect(at('<script>')).toBeLessThan(at('class="rho-part"'));
    // The inline script only unpacks the page's script (carried compressed) and adds it.
    expect(boot.length).toBeLessThan(4096);
    expect(script).toContain('rho-part');
    for (const p of parts.slice(0, -1)) expect(p.length).toBe(PART_BYTES);
    expect(Buffer.from(unpack(payload)).equals(Buffer.from(bytes))).toBe(true);
    expect(meta).toEqual({ title: 'T', encrypted: false, leafId: 'e7', bytes: bytes.length, format: 2 });
    expect(csp).toBe(
      `default-src 'none'; script-src 'sha256-${sha256(boot)}' 'strict-dynamic'; style-src 'sha256-${sha256(style)}'; img-src data: blob:; worker-src blob:; base-uri 'none'; form-action 'none'`,
    );
  });

  test('the page script is the production build whatever NODE_ENV the process has (vitest sets "test"): no preact devtools hook', () => {
    expect(process.env.NODE_ENV).not.toBe('production');
    expect(gunzipSync(fromBase85(assets.script)).toString()).not.toContain('__PREACT_DEVTOOLS__');
  });

  test('a hostile title stays text: escaped in <title>, no "<" in the meta block, one closing tag per script element', async () => {
    const title = 'x</title><script>alert(1)</script></script><!-- \u2028';
    const html = await pageText(await buildHtmlPage(encoder.encode(session('s2', 2, '</script><script>alert(2)</script>')), { title }, assets));
    expect(html).toContain('<title>x&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;/script&gt;&lt;!-- &#x2028;</title>');
    expect(readPage(html).meta.title).toBe(title);
    expect(html.match(/<script/g)!.length).toBe(html.match(/<\/script>/g)!.length);
    expect(html).not.toContain('alert(2)');
  });

  test('the page is all ASCII (the browser decodes it several times faster), whatever the title and the session hold', async () => {
    const title = 'Résumé — “quotes” 🚀';
    const html = await pageText(await buildHtmlPage(encoder.encode(session('s4', 3, 'naïve — 日本語 🚀')), { title }, assets));
    expect(html).toMatch(/^[\x00-\x7f]*$/);
    expect(html).toContain('<title>R&#xe9;sum&#xe9; &#x2014; &#x201c;quotes&#x201d; &#x1f680;</title>');
    expect(readPage(html).meta.title).toBe(title);
    expect(unpackText(readPage(html).payload)).toContain('naïve — 日本語 🚀');
  });

  test('with a passphrase the payload is an age file (scrypt) that the passphrase opens and another refuses', async () => {
    const bytes = encoder.encode(session('s3', 5, 'secret words'));
    // A low scrypt work factor for the round trip; the default page's stanza is checked at age's 2^18.
    const html = await pageText(await buildHtmlPage(bytes, { title: 'T', passphrase: 'pass phrase', workFactor: 10 }, assets));
    const { meta, payload } = readPage(html);
    expect(meta.encrypted).toBe(true);
    expect(payload.subarray(0, 21).toString()).toBe('age-encryption.org/v1');
    expect(payload.toString('latin1')).toMatch(/\n-> scrypt \S+ 10\n/);
    const full = readPage(await pageText(await buildHtmlPage(bytes, { title: 'T', passphrase: 'pass phrase' }, assets))).payload;
    expect(full.toString('latin1')).toMatch(/\n-> scrypt \S+ 18\n/);
    const open = async (passphrase: string) => {
      const d = new Decrypter();
      d.addPassphrase(passphrase);
      return d.decrypt(new Uint8Array(payload));
    };
    expect(Buffer.from(unpack(await open('pass phrase'))).equals(Buffer.from(bytes))).toBe(true);
    await expect(open('wrong')).rejects.toThrow();
    // The plain page's worker has no age inside; the encrypted page's has.
    expect(html).toContain(assets.workerEncrypted);
    expect(html).not.toContain(assets.worker);
  }, 60_000);
});

describe('exportHtml', () => {
  test('the whole stored file, or only the branch (header + branch lines), inside the page', async () => {
    const { store } = memoryStore({ now: () => 1_700_000_000_000 });
    const api = createApi({ store, now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => '0000beef' });
    const lines = [
      headerLine('br'),
      messageLine('a1', null, 'user', 'q'),
      messageLine('a2', 'a1', 'assistant', 'old'),
      messageLine('a3', 'a1', 'assistant', 'new'),
    ];
    const text = lines.join('\n') + '\n';
    await api.importFiles({ files: [new File([text], 'br.jsonl')] });
    const whole = await api.exportHtml({ id: 'br', leafId: 'a2' });
    expect(whole.name).toMatch(/_br\.html$/);
    const page = readPage(await pageText(whole.blob));
    expect(unpackText(page.payload)).toBe(text);
    expect(page.meta.leafId).toBe('a2');
    const branch = await api.exportHtml({ id: 'br', leafId: 'a2', branch: true });
    expect(branch.name).toMatch(/_br\.branch\.html$/);
    expect(unpackText(readPage(await pageText(branch.blob)).payload)).toBe([lines[0], lines[1], lines[2]].join('\n') + '\n');
  }, 120_000);
});
