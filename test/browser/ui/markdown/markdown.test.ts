// The reader's markdown path in Chromium: the worker's renderMarkdown (markdown-it, raw HTML off,
// code coloured) and the page's sanitizer (sanitize.ts: the browser's HTML Sanitizer, and DOMPurify
// where it is missing — both run here against the same contract).
import { afterEach, describe, expect, test } from 'vitest';
import { loadSanitizer, platformSanitizer } from '../../../../src/ui/markdown/sanitize.ts';
import { cleanups, worker, htmlOf, activeIn, expectInert, NICE, HOSTILE, SANITIZERS } from './markdown-helpers.ts';

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

test('Chromium has the HTML Sanitizer, and the page uses it', async () => {
  expect(platformSanitizer()).not.toBeNull();
  const chosen = await loadSanitizer();
  const div = document.createElement('div');
  div.append(chosen('<p><b>x</b></p>'));
  expect(div.innerHTML).toBe('<p>x</p>');
});

describe.each(SANITIZERS)('the page sanitizer: %s', (_name, load) => {
  test('only markdown-it elements survive, each with its own attributes; refused formatting leaves its text', async () => {
    const sanitizeToFragment = await load();
    const html = [
      '<p>ok <b onclick="x()">bold?</b> <strong>strong</strong> <em onclick="x()">em</em> <a href="https://example.com/a" onclick="x()" style="color:red">web</a>',
      '<a href="javascript:alert(1)">js link</a> <a href=" JAVASCRIPT:alert(1)">js2</a> <a href="mailto:a@b.c">mail</a></p>',
      '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1"><svg><script>1</script><a href="https://x.y">in svg</a></svg>',
      '<iframe src="https://evil.example"></iframe><style>p{}</style><form action="https://evil.example"><input value="v"></form>',
      '<pre><code class="language-ts" onclick="x()"><span class="hljs-keyword">const</span> <span class="hljs-title function_">f</span> <span class="evil">e</span></code></pre>',
      '<ol start="3" type="a"><li>three</li></ol><span class="md-image">[pic: https://x.y/p.png]</span><!-- comment --><table><tbody><tr><td style="x">c</td></tr></tbody></table>',
      // Element names that are names of Object's own functions must not slip through a lookup table.
      '<constructor onclick="x()">c1</constructor><tostring onmouseover="x()">c2</tostring><__proto__ onfocus="x()">c3</__proto__><hasownproperty src="x">c4</hasownproperty>',
    ].join('');
    const fragment = sanitizeToFragment(html);
    const div = document.createElement('div');
    div.append(fragment);
    expect(activeIn(div)).toEqual({
      elements: [],
      handlers: [],
      links: ['https://example.com/a _blank noopener noreferrer', 'mailto:a@b.c _blank noopener noreferrer'],
    });
    expect(div.querySelector('strong')?.textContent).toBe('strong');
    expect(div.querySelector('em')?.attributes.length).toBe(0);
    expect(div.querySelector('code')?.className).toBe('language-ts');
    expect(div.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(div.querySelector('.hljs-title')?.className).toBe('hljs-title function_');
    expect(div.querySelector('.evil')).toBeNull();
    expect(div.querySelector('ol')?.getAttribute('start')).toBe('3');
    expect(div.querySelector('ol')?.hasAttribute('type')).toBe(false);
    expect(div.querySelector('.md-image')?.textContent).toBe('[pic: https://x.y/p.png]');
    expect(div.querySelector('td')?.attributes.length).toBe(0);
    expect(div.innerHTML).not.toContain('<!--');
    // Refused links and formatting are gone but what they said stays readable, as text; what is
    // not text to read (a script's code, an SVG) goes whole, as both sanitizers do it.
    expect(div.textContent).toContain('js link');
    expect(div.textContent).toContain('js2');
    expect(div.textContent).toContain('bold?');
    expect(div.querySelector('b')).toBeNull();
    expect(div.textContent).not.toContain('window.__pwned=1');
    expect((window as unknown as { __pwned?: unknown }).__pwned).toBeUndefined();
  });

  test("markdown-it's output passes untouched, and hostile markdown stays inert", async () => {
    const sanitizeToFragment = await load();
    const api = worker();
    const htmls = await api.renderMarkdown({ texts: [NICE, ...HOSTILE] });
    for (const [i, html] of htmls.entries()) {
      const template = document.createElement('template');
      template.innerHTML = html;
      expect(htmlOf(sanitizeToFragment(html)), i ? HOSTILE[i - 1] : 'nice').toBe(template.innerHTML);
    }
  });
});

describe("the worker's renderMarkdown", () => {
  test('markdown-it output has every construct the reader shows', async () => {
    const api = worker();
    const text = NICE;
    const [html] = await api.renderMarkdown({ texts: [text] });
    // No inline style: the CSP (style-src 'self') would refuse it with a console error.
    expect(html).not.toContain('style=');
    const template = document.createElement('template');
    template.innerHTML = html;
    for (const selector of [
      'h1',
      'strong',
      'em',
      's',
      'code',
      'blockquote',
      'ol[start="3"]',
      'ul',
      'hr',
      'br',
      'table td',
      'table td.md-align-right',
      'span.md-image',
      'a[href="https://example.com/x"]',
      'a[href="mailto:mail@example.com"]',
      'pre code.language-ts .hljs-keyword',
    ]) {
      expect(template.content.querySelector(selector), selector).not.toBeNull();
    }
  });

  test('hostile markdown comes back inert', async () => {
    const api = worker();
    const htmls = await api.renderMarkdown({ texts: HOSTILE });
    expect(htmls).toHaveLength(HOSTILE.length);
    for (const [i, html] of htmls.entries()) {
      const template = document.createElement('template');
      template.innerHTML = html;
      // Already inert from the worker (the page's sanitizer changes nothing of it, tested above).
      expectInert(template.content, HOSTILE[i]);
      expect(template.content.querySelector('a[href*="javascript" i], a[href^="data:"], a[href^="file:"], a[href^="/"]'), HOSTILE[i]).toBeNull();
    }
    // The raw HTML is there to read, as text.
    const first = document.createElement('template');
    first.innerHTML = htmls[0];
    expect(first.content.textContent).toContain('<script>window.__pwned=1</script>');
  });

  test('a text past the size limit comes back empty (the page shows it plain); a bad call is refused', async () => {
    const api = worker();
    expect(await api.renderMarkdown({ texts: ['**x**'.repeat(9000), '**y**'] })).toEqual(['', '<p><strong>y</strong></p>\n']);
    await expect(api.renderMarkdown({ texts: 'nope' as unknown as string[] })).rejects.toMatchObject({ code: 'invalid-input' });
  });
});
