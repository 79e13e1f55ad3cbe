/**
 * The page's second line behind the worker's markdown renderer (which already has raw HTML off).
 * The browser's HTML Sanitizer does the parsing and the allowlist (Element.setHTML with the config
 * below; Chromium 146+, Firefox 148+); where it is missing, DOMPurify 3 does the same job with the
 * same lists (sanitize-fallback.ts, loaded only there). Both parse inertly and return nodes that are
 * moved into the page as they are. What neither can check stays ours (`checkValues`): link schemes,
 * class names, the list start; and links open without opener or referrer.
 */

/** Link targets we let through: the web and mail. Everything else (javascript:, data:, file:, relative) becomes text. */
const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

/** Whether a URL may become a link. */
export function isSafeLink(url: string): boolean {
  return SAFE_LINK.test(url.trim());
}

const LANGUAGE_CLASS = /^language-[\w+#-]{1,40}$/;
/** highlight.js's classes: hljs-keyword, and modifiers such as "function_" after hljs-title. */
const HLJS_CLASSES = /^hljs-[\w-]{1,40}( [\w-]{1,40}_)*$/;

/** Elements markdown-it produces that keep no attribute. */
const BARE = ['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'li', 'pre', 'em', 'strong', 's', 'table', 'thead', 'tbody', 'tr'];

/** Elements markdown-it produces with the attributes each may keep (their values are checked by `checkValues`). */
export const ALLOWED_ELEMENTS: Record<string, string[]> = {
  ...Object.fromEntries(BARE.map((tag) => [tag, []])),
  ol: ['start'],
  // A table column's alignment, as a class (the worker turns markdown-it's inline style into one).
  th: ['class'],
  td: ['class'],
  code: ['class'],
  span: ['class'],
  a: ['href', 'title'],
};

/** Formatting elements markdown-it never makes: refused, but their text stays readable. */
export const UNWRAPPED_ELEMENTS = [
  'b',
  'i',
  'u',
  'del',
  'ins',
  'sub',
  'sup',
  'mark',
  'small',
  'big',
  'kbd',
  'samp',
  'var',
  'q',
  'cite',
  'abbr',
  'div',
  'font',
  'center',
  'section',
  'article',
  'dl',
  'dt',
  'dd',
  'caption',
];

/** Turns HTML into a fragment holding only allowlisted elements and attributes with checked values. */
export type SanitizeHtml = (html: string) => DocumentFragment;

function classAllowed(tag: string, value: string): boolean {
  if (tag === 'code') return LANGUAGE_CLASS.test(value);
  if (tag === 'th' || tag === 'td') return /^md-align-(left|center|right)$/.test(value);
  // highlight.js wraps an embedded language (a script inside HTML) in a span of class language-….
  if (tag === 'span') return value === 'md-image' || HLJS_CLASSES.test(value) || LANGUAGE_CLASS.test(value);
  return false;
}

/**
 * The checks of values the sanitizers leave to us, on an already sanitized fragment: a link
 * without a safe href becomes its text, links get target=_blank and rel="noopener noreferrer";
 * unexpected classes and list starts are dropped.
 */
export function checkValues(root: DocumentFragment): DocumentFragment {
  for (const a of root.querySelectorAll('a')) {
    if (!isSafeLink(a.getAttribute('href') ?? '')) {
      a.replaceWith(a.ownerDocument.createTextNode(a.textContent ?? ''));
      continue;
    }
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer');
  }
  for (const el of root.querySelectorAll('[class]')) if (!classAllowed(el.localName, el.getAttribute('class') ?? '')) el.removeAttribute('class');
  for (const ol of root.querySelectorAll('ol[start]')) if (!/^\d{1,9}$/.test(ol.getAttribute('start') ?? '')) ol.removeAttribute('start');
  return root;
}

/** Element.setHTML as Chromium 146+ and Firefox 148+ have it (lib.dom does not list it yet). */
type SetHTML = (html: string, options: { sanitizer: unknown }) => void;

/** The browser's HTML Sanitizer with our lists, or null where it is missing. */
export function platformSanitizer(doc: Document = document): SanitizeHtml | null {
  const view = doc.defaultView as (Window & { Sanitizer?: new (config: object) => unknown }) | null;
  const setHTML = (doc.defaultView?.Element.prototype as unknown as { setHTML?: SetHTML } | undefined)?.setHTML;
  if (!setHTML || !view?.Sanitizer) return null;
  // Built once: the browser checks and normalizes the configuration here, not on every call.
  const sanitizer = new view.Sanitizer({
    elements: Object.entries(ALLOWED_ELEMENTS).map(([name, attributes]) => ({ name, attributes })),
    replaceWithChildrenElements: UNWRAPPED_ELEMENTS,
    attributes: [],
    comments: false,
    dataAttributes: false,
  });
  return (html) => {
    // A template's content is inert: nothing loads or runs while we check it.
    const template = doc.createElement('template');
    setHTML.call(template, html, { sanitizer });
    return checkValues(template.content);
  };
}

/** DOMPurify with the same lists (its module is loaded on this call only). */
export async function fallbackSanitizer(doc: Document = document): Promise<SanitizeHtml> {
  const { purifySanitizer } = await import('./sanitize-fallback.ts');
  return purifySanitizer(doc);
}

let chosen: Promise<SanitizeHtml> | null = null;

/** The sanitizer this browser uses: its own where it has one, else DOMPurify. */
export function loadSanitizer(): Promise<SanitizeHtml> {
  chosen ??= Promise.resolve(platformSanitizer() ?? fallbackSanitizer());
  return chosen;
}
