import MarkdownIt from 'markdown-it';
import DOMPurify from 'dompurify';

/** Link targets we let through: the web and mail. Everything else (javascript:, data:, file:, relative) becomes text. */
const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

/** Whether a URL may become a link. */
export function isSafeLink(url: string): boolean {
  return SAFE_LINK.test(url.trim());
}

function createRenderer(): InstanceType<typeof MarkdownIt> {
  // html:false — raw HTML in a session is shown as text, never parsed as markup.
  const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  md.validateLink = isSafeLink;
  const renderToken = md.renderer.renderToken.bind(md.renderer);
  md.renderer.rules.link_open = (tokens, i, options) => {
    tokens[i].attrSet('target', '_blank');
    tokens[i].attrSet('rel', 'noopener noreferrer');
    return renderToken(tokens, i, options);
  };
  // Markdown images would load from anywhere: show their text and address instead (images come only as Blobs).
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
const CACHE_SIZE = 400;

/** Extra attributes DOMPurify keeps: our links open in a new tab. */
const PURIFY = { ADD_ATTR: ['target'], FORBID_TAGS: ['style', 'img', 'svg', 'math', 'form', 'input'], FORBID_ATTR: ['style'] };

/**
 * Markdown → HTML that is safe to insert: markdown-it with raw HTML off and only http(s)/mailto
 * links, then DOMPurify as a second line. Cached by text (scrolling back re-renders nothing).
 */
export function renderMarkdown(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  md ??= createRenderer();
  const html = DOMPurify.sanitize(md.render(text), PURIFY) as string;
  cache.set(text, html);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return html;
}
