/**
 * The page's second line behind the worker's markdown renderer (which already has raw HTML off).
 * The browser's HTML Sanitizer does the parsing and the allowlist (Element.setHTML with the config
 * below; Chromium 146+, Firefox 148+); where it is missing, DOMPurify 3 does the same job with the
 * same lists (sanitize-fallback.ts, loaded only there). Both parse inertly and return nodes that are
 * moved into the page as they are. What neither can check stays ours (`checkValues`): link schemes,
 * class names, the list start; and links open without opener or referrer.
 */

import { ALLOWED_ELEMENTS, checkValues, type SanitizeHtml, UNWRAPPED_ELEMENTS } from './allowlist.ts';

export type { SanitizeHtml } from './allowlist.ts';

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
