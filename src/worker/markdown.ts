import type { HLJSApi } from 'highlight.js';
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

/** A fenced code block that names a language. */
const FENCE_WITH_LANGUAGE = /^ {0,3}(```|~~~)[ \t]*[\w+#-]/m;

let hljs: HLJSApi | null = null;
let loadingHljs: Promise<void> | null = null;

/** Loads highlight.js's common languages once, on the first text with a code block that names a language. */
function loadHighlighter(): Promise<void> {
  loadingHljs ??= import('highlight.js/lib/common').then(
    (m) => {
      hljs = m.default;
    },
    () => undefined,
  );
  return loadingHljs;
}

function highlight(code: string, lang: string): string {
  const language = lang.trim().split(/\s+/)[0];
  if (!hljs || !language || code.length > HIGHLIGHT_MAX_CHARS || !hljs.getLanguage(language)) return '';
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

/**
 * The HTML of markdown texts, in order ('' for one past MARKDOWN_MAX_CHARS: the page keeps it
 * plain). Loads the highlighter first when a text needs it.
 */
export async function markdownToHtmlAll(texts: readonly unknown[]): Promise<string[]> {
  if (!loadingHljs && texts.some((t) => typeof t === 'string' && t.length <= MARKDOWN_MAX_CHARS && FENCE_WITH_LANGUAGE.test(t))) await loadHighlighter();
  else if (loadingHljs) await loadingHljs;
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
