// Find's current match brought on screen: the list pins the hit's row at the top, then the row
// opens what holds the match (a long output, a thinking block) and its markdown comes in, which
// can leave the match far below the screen. Each time the row's content or size changes, the match
// is looked for in it and, when it is off the screen, the scroller is moved to it (the match a third
// of the way down). The user's own scroll ends it.
import { useEffect } from 'preact/hooks';

/** The first visible occurrence of `needle` (lowercase) in `root`'s text, or null. */
export function firstVisibleMatch(root: Element, needle: string): Range | null {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.nodeValue ?? '').toLowerCase();
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      const range = new Range();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      // Text inside a closed <details> has no boxes.
      if (range.getClientRects().length > 0) return range;
    }
  }
  return null;
}

/**
 * While row `index` holds find's current hit (`needle`, lowercase), keeps its first visible match on
 * screen: when it is not, the scroller is moved to it as a reader's scroll would (ending the list's pin).
 * `hitKey` changes when find moves to another hit (the same row found again looks again).
 */
export function useRevealMatch(host: { current: HTMLElement | null }, index: number, needle: string, hitKey: unknown): void {
  useEffect(() => {
    const root = host.current;
    if (index < 0 || !needle || !root) return;
    let frame = 0;
    const place = () => {
      const row = root.querySelector(`.vl-row[data-index="${index}"]:not(.vl-skeleton)`);
      const scroller = row?.closest('.vl');
      if (!row || !scroller) return;
      const match = firstVisibleMatch(row, needle);
      if (!match) return;
      const mark = match.getBoundingClientRect();
      const view = scroller.getBoundingClientRect();
      if (mark.top >= view.top && mark.bottom <= view.bottom) return;
      // Scrolled as a reader would (the list takes its new place from there): the match a third of the way down.
      scroller.scrollTop += Math.round(mark.top - view.top - view.height / 3);
    };
    const sizes = new ResizeObserver(() => look());
    let watched: Element | null = null;
    function look() {
      // The row's element (drawn again when it scrolls out and back) is watched for its size.
      const row = root?.querySelector(`.vl-row[data-index="${index}"]`) ?? null;
      if (row && row !== watched) {
        if (watched) sizes.unobserve(watched);
        watched = row;
        sizes.observe(row);
      }
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(place);
    }
    // Content: a row drawn, markdown in, a <details> opened.
    const mutations = new MutationObserver(look);
    mutations.observe(root, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['open'] });
    look();
    // The user's own scroll (as the list's pin ends on it) leaves the screen to them.
    const stop = () => {
      cancelAnimationFrame(frame);
      mutations.disconnect();
      sizes.disconnect();
    };
    const onKey = (e: KeyboardEvent) => {
      if (/^(Arrow|Page|Home|End| )/.test(e.key)) stop();
    };
    root.addEventListener('wheel', stop, { passive: true });
    root.addEventListener('touchstart', stop, { passive: true });
    root.addEventListener('pointerdown', stop);
    root.addEventListener('keydown', onKey);
    return () => {
      stop();
      root.removeEventListener('wheel', stop);
      root.removeEventListener('touchstart', stop);
      root.removeEventListener('pointerdown', stop);
      root.removeEventListener('keydown', onKey);
    };
  }, [host, index, needle, hitKey]);
}
