import type { LanguageFn } from 'highlight.js';
import hljs from 'highlight.js/lib/core';
import lang_bash from 'highlight.js/lib/languages/bash';
import lang_c from 'highlight.js/lib/languages/c';
import lang_cpp from 'highlight.js/lib/languages/cpp';
import lang_csharp from 'highlight.js/lib/languages/csharp';
import lang_css from 'highlight.js/lib/languages/css';
import lang_diff from 'highlight.js/lib/languages/diff';
import lang_go from 'highlight.js/lib/languages/go';
import lang_graphql from 'highlight.js/lib/languages/graphql';
import lang_ini from 'highlight.js/lib/languages/ini';
import lang_java from 'highlight.js/lib/languages/java';
import lang_javascript from 'highlight.js/lib/languages/javascript';
import lang_json from 'highlight.js/lib/languages/json';
import lang_kotlin from 'highlight.js/lib/languages/kotlin';
import lang_less from 'highlight.js/lib/languages/less';
import lang_lua from 'highlight.js/lib/languages/lua';
import lang_makefile from 'highlight.js/lib/languages/makefile';
import lang_markdown from 'highlight.js/lib/languages/markdown';
import lang_objectivec from 'highlight.js/lib/languages/objectivec';
import lang_perl from 'highlight.js/lib/languages/perl';
import lang_php from 'highlight.js/lib/languages/php';
import lang_php_template from 'highlight.js/lib/languages/php-template';
import lang_plaintext from 'highlight.js/lib/languages/plaintext';
import lang_python from 'highlight.js/lib/languages/python';
import lang_python_repl from 'highlight.js/lib/languages/python-repl';
import lang_r from 'highlight.js/lib/languages/r';
import lang_ruby from 'highlight.js/lib/languages/ruby';
import lang_rust from 'highlight.js/lib/languages/rust';
import lang_scss from 'highlight.js/lib/languages/scss';
import lang_shell from 'highlight.js/lib/languages/shell';
import lang_sql from 'highlight.js/lib/languages/sql';
import lang_swift from 'highlight.js/lib/languages/swift';
import lang_typescript from 'highlight.js/lib/languages/typescript';
import lang_vbnet from 'highlight.js/lib/languages/vbnet';
import lang_wasm from 'highlight.js/lib/languages/wasm';
import lang_xml from 'highlight.js/lib/languages/xml';
import lang_yaml from 'highlight.js/lib/languages/yaml';
import MarkdownIt from 'markdown-it';

/**
 * Markdown → HTML for the reader, done in the worker so the page's main thread only inserts it.
 * Safe by construction: raw HTML is off (it comes out escaped, as text), links are limited to
 * http(s)/mailto and open in a new tab without opener or referrer, and markdown images become text
 * (images reach the page only as Blobs). Code blocks with a known language come coloured by
 * highlight.js (its output is escaped text in <span class="hljs-…">). The page still passes the
 * result through its own allowlist (src/ui/markdown/sanitize.ts) before inserting it.
 */

/** Link targets we let through: the web and mail. Everything else (javascript:, data:, file:, relative) stays text. */
const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

/** Past this size a text is not rendered (the page shows it plain): markdown of huge pastes costs too much for what it shows. */
export const MARKDOWN_MAX_CHARS = 40_000;

/** Past this many characters a code block stays uncoloured: highlighting time grows with its length. */
export const HIGHLIGHT_MAX_CHARS = 20_000;

/** highlight.js's "common" languages. Importing them only defines functions; registering builds their grammars (tens of ms), so that waits for the first code block. */
const LANGUAGES: Record<string, LanguageFn> = {
  bash: lang_bash,
  c: lang_c,
  cpp: lang_cpp,
  csharp: lang_csharp,
  css: lang_css,
  diff: lang_diff,
  go: lang_go,
  graphql: lang_graphql,
  ini: lang_ini,
  java: lang_java,
  javascript: lang_javascript,
  json: lang_json,
  kotlin: lang_kotlin,
  less: lang_less,
  lua: lang_lua,
  makefile: lang_makefile,
  markdown: lang_markdown,
  objectivec: lang_objectivec,
  perl: lang_perl,
  php: lang_php,
  'php-template': lang_php_template,
  plaintext: lang_plaintext,
  python: lang_python,
  'python-repl': lang_python_repl,
  r: lang_r,
  ruby: lang_ruby,
  rust: lang_rust,
  scss: lang_scss,
  shell: lang_shell,
  sql: lang_sql,
  swift: lang_swift,
  typescript: lang_typescript,
  vbnet: lang_vbnet,
  wasm: lang_wasm,
  xml: lang_xml,
  yaml: lang_yaml,
};
let registered = false;

/** Registers the languages once, on the first text with a code block that names a language (tens of ms, in the worker). */
function registerLanguages(): void {
  if (registered) return;
  registered = true;
  hljs.configure({ ignoreUnescapedHTML: true });
  for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
}

function highlight(code: string, lang: string): string {
  const language = lang.trim().split(/\s+/)[0];
  if (!language || code.length > HIGHLIGHT_MAX_CHARS) return '';
  registerLanguages();
  if (!hljs.getLanguage(language)) return '';
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return '';
  }
}

function createRenderer(): InstanceType<typeof MarkdownIt> {
  // html:false — raw HTML in a session is shown as text, never parsed as markup.
  const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false, highlight });
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  md.validateLink = (url) => SAFE_LINK.test(url.trim());
  const renderToken = md.renderer.renderToken.bind(md.renderer);
  md.renderer.rules.link_open = (tokens, i, options) => {
    tokens[i].attrSet('target', '_blank');
    tokens[i].attrSet('rel', 'noopener noreferrer');
    return renderToken(tokens, i, options);
  };
  // Aligned table columns: markdown-it writes style="text-align:…", which the app's CSP (style-src
  // 'self') refuses, with a console error, as soon as the page parses it. A class says the same.
  for (const rule of ['th_open', 'td_open']) {
    md.renderer.rules[rule] = (tokens, i, options) => {
      const token = tokens[i];
      const align = /text-align:(left|center|right)/.exec(String(token.attrGet('style') ?? ''));
      if (token.attrs) token.attrs = token.attrs.filter(([name]) => name !== 'style');
      if (align) token.attrSet('class', `md-align-${align[1]}`);
      return renderToken(tokens, i, options);
    };
  }
  // Markdown images would load from anywhere: show their text and address instead.
  md.renderer.rules.image = (tokens, i) => {
    const token = tokens[i];
    const alt = md.utils.escapeHtml(token.content || 'image');
    const src = md.utils.escapeHtml(String(token.attrGet('src') ?? ''));
    return `<span class="md-image">[${alt}${src ? `: ${src}` : ''}]</span>`;
  };
  return md;
}

let md: InstanceType<typeof MarkdownIt> | null = null;
const cache = new Map<string, string>();
const CACHE_SIZE = 600;

/** The HTML of markdown texts, in order ('' for one past MARKDOWN_MAX_CHARS: the page keeps it plain). */
export function markdownToHtmlAll(texts: readonly unknown[]): string[] {
  return texts.map((t) => (typeof t === 'string' ? markdownToHtml(t) : ''));
}

/** The HTML of one markdown text ('' past MARKDOWN_MAX_CHARS). Cached by text. */
export function markdownToHtml(text: string): string {
  if (typeof text !== 'string' || text.length > MARKDOWN_MAX_CHARS) return '';
  const hit = cache.get(text);
  if (hit !== undefined) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  md ??= createRenderer();
  const html = md.render(text);
  cache.set(text, html);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return html;
}
