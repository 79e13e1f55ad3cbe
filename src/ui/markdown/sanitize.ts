/**
 * The page's second line behind the worker's markdown renderer: HTML is parsed into an inert
 * <template> (no script runs, nothing loads), then walked once; only the elements markdown-it makes
 * survive, each with only its own attributes, and links only to http(s)/mailto, opened without
 * opener or referrer. Anything else becomes its text. The nodes are then moved into the page as
 * they are (never serialized and parsed again, so what was checked is what is shown).
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

/** Elements markdown-it produces, with the attributes each may keep (checked by `keep`). */
// No prototype: a tag named "constructor" or "toString" must not find Object's functions here.
const ALLOWED: Record<string, (name: string, value: string) => boolean> = Object.create(null);
const none = () => false;
for (const tag of ['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'li', 'pre', 'em', 'strong', 's', 'table', 'thead', 'tbody', 'tr'])
  ALLOWED[tag] = none;
// A table column's alignment, as a class (the worker turns markdown-it's inline style into one).
ALLOWED.th = ALLOWED.td = (name, value) => name === 'class' && /^md-align-(left|center|right)$/.test(value);
ALLOWED.ol = (name, value) => name === 'start' && /^\d{1,9}$/.test(value);
ALLOWED.code = (name, value) => name === 'class' && LANGUAGE_CLASS.test(value);
// highlight.js wraps an embedded language (a script inside HTML) in a span of class language-….
ALLOWED.span = (name, value) => name === 'class' && (value === 'md-image' || HLJS_CLASSES.test(value) || LANGUAGE_CLASS.test(value));
ALLOWED.a = (name, value) => (name === 'href' && isSafeLink(value)) || name === 'title';

/**
 * Parses `html` inertly and returns a fragment holding only allowlisted elements and attributes;
 * links get target=_blank and rel="noopener noreferrer"; a link without a safe href becomes its text.
 */
export function sanitizeToFragment(html: string, doc: Document = document): DocumentFragment {
  const template = doc.createElement('template');
  template.innerHTML = html;
  const root = template.content;
  // Walk iteratively; a refused element is replaced by its text, so its subtree is never visited.
  const stack: Element[] = [...root.children].reverse();
  while (stack.length) {
    const el = stack.pop()!;
    const tag = el.localName;
    const keep = el.namespaceURI === 'http://www.w3.org/1999/xhtml' && Object.hasOwn(ALLOWED, tag) ? ALLOWED[tag] : undefined;
    if (!keep || (tag === 'a' && !isSafeLink(el.getAttribute('href') ?? ''))) {
      el.replaceWith(doc.createTextNode(el.textContent ?? ''));
      continue;
    }
    for (const attr of [...el.attributes]) {
      if (!keep(attr.name, attr.value)) el.removeAttribute(attr.name);
    }
    if (tag === 'a') {
      el.setAttribute('target', '_blank');
      el.setAttribute('rel', 'noopener noreferrer');
    }
    for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]);
  }
  // Comments and processing instructions carry nothing we show.
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_COMMENT | NodeFilter.SHOW_PROCESSING_INSTRUCTION);
  const drop: Node[] = [];
  while (walker.nextNode()) drop.push(walker.currentNode);
  for (const node of drop) node.parentNode?.removeChild(node);
  return root;
}
