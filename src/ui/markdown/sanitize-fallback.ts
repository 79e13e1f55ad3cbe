/**
 * The markdown sanitizer where the browser has no HTML Sanitizer (Safari): DOMPurify 3 with the
 * same lists as the platform path (allowlist.ts), parsing through the app's one Trusted Types policy, returning a
 * fragment (never a string for another sink). The value checks are the same as the platform path's.
 */
import DOMPurify from 'dompurify';
import { purifyPolicy } from '../trusted-types.ts';
import { ALLOWED_ELEMENTS, checkValues, type SanitizeHtml } from './allowlist.ts';

/** DOMPurify bound to `doc`'s window, allowing what the platform sanitizer allows. */
export function purifySanitizer(doc: Document): SanitizeHtml {
  const purify = DOMPurify(doc.defaultView as Window & typeof globalThis);
  const tags = Object.keys(ALLOWED_ELEMENTS);
  const attributes = [...new Set(Object.values(ALLOWED_ELEMENTS).flat())];
  const policy = purifyPolicy();
  // DOMPurify allows attributes for all elements at once; drop those an element may not have.
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    if (!Object.hasOwn(ALLOWED_ELEMENTS, node.localName) || !ALLOWED_ELEMENTS[node.localName].includes(data.attrName)) data.keepAttr = false;
  });
  const config = {
    ALLOWED_TAGS: tags,
    ALLOWED_ATTR: attributes,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    // Refused elements keep their text (as UNWRAPPED_ELEMENTS on the platform path), except those whose
    // content is not text to read (DOMPurify's FORBID_CONTENTS: script, style, svg, math, …), which
    // the platform drops too.
    KEEP_CONTENT: true,
    RETURN_DOM_FRAGMENT: true,
    ...(policy ? { TRUSTED_TYPES_POLICY: policy as never } : {}),
  } as const;
  return (html) => checkValues(purify.sanitize(html, config) as DocumentFragment);
}
