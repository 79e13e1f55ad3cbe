// What the markdown sanitizers keep (sanitize.ts: the browser's HTML Sanitizer, or DOMPurify in
// sanitize-fallback.ts): the elements and attributes markdown-it makes, and the checks of values
// both leave to us (link schemes, class names, list starts).

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
