/**
 * Marks find matches inside an element with the CSS Custom Highlight API (no DOM changes, so it
 * cannot disturb Preact or the sanitized markdown). Browsers without it simply show no marks.
 * https://developer.mozilla.org/docs/Web/API/CSS_Custom_Highlight_API
 */
export function highlightMatches(root: HTMLElement | null, query: string): void {
  const registry = (globalThis as { CSS?: { highlights?: Map<string, unknown> } }).CSS?.highlights;
  const HighlightCtor = (globalThis as { Highlight?: new (...ranges: Range[]) => unknown }).Highlight;
  if (!registry || !HighlightCtor) return;
  const needle = query.trim().toLowerCase();
  if (!root || !needle) {
    registry.delete('rd-find');
    return;
  }
  const ranges: Range[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && ranges.length < 2000; node = walker.nextNode()) {
    const text = (node.nodeValue ?? '').toLowerCase();
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      const range = new Range();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      ranges.push(range);
    }
  }
  registry.set('rd-find', new HighlightCtor(...ranges));
}
