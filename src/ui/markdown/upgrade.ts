/**
 * Markdown on screen without stalling scrolling: a text is shown plain at once; its HTML (code
 * blocks coloured) is made in the worker (renderMarkdown), passed through the browser's HTML Sanitizer (sanitize.ts) and swapped in by
 * a time-sliced scheduler, the rows nearest the viewport first. Rows that scroll away before their
 * turn cost nothing more than their plain text.
 */
import { loadSanitizer, platformSanitizer, type SanitizeHtml } from './sanitize.ts';
import { createSliceScheduler, type SliceJob } from './scheduler.ts';

/** Time per task spent swapping markdown in before the browser gets to scroll and paint again. */
const BUDGET_MS = 6;
/** Time a render may spend inserting markdown already at hand (scrolling back) in the same frame. */
const INLINE_BUDGET_MS = 4;
/** Texts asked of the worker in one call (the nearest waiting ones). */
const BATCH = 24;
const CACHE_SIZE = 400;
/** Rank of an element that takes no room (e.g. inside closed details): after everything on screen. */
const HIDDEN_RANK = 1e9;

/** Converts texts to HTML; the worker's renderMarkdown by default (swappable for tests). */
export type MarkdownSource = (texts: string[]) => Promise<string[]>;
// The worker client is imported on first use (the app has it already; tests can swap the source without starting a worker).
let source: MarkdownSource = async (texts) => (await import('../worker.ts')).worker.renderMarkdown({ texts });

/** The sanitizer: the browser's at once; DOMPurify once loaded where the browser has none (before any HTML is at hand). */
let sanitize: SanitizeHtml | null = platformSanitizer();
/** The element a slice last swapped markdown into (laid out at the slice's end). */
let swapped: HTMLElement | null = null;
/**
 * HTML longer than this (a reply of some 3,000 words) is laid out by the next frame, not in the
 * slice that sanitized and inserted it: both in one task made one long task of two.
 */
const LAY_OUT_IN_SLICE_MAX = 24_000;
/** Set when the slice swapped such HTML in: its swaps wait for the frame. */
let long = false;
/**
 * A slice's swaps are laid out in its own task: left to the next frame, their style and layout
 * (5–10 ms at 4× CPU) came on top of that frame's paint while the reader scrolled.
 */
function layOutSwaps() {
  if (!long && swapped?.isConnected) void swapped.offsetHeight;
  swapped = null;
  long = false;
}
const scheduler = createSliceScheduler({ budgetMs: BUDGET_MS, inlineBudgetMs: INLINE_BUDGET_MS, afterPass: layOutSwaps });
const html = new Map<string, string>();
/** The text each element shows now (an element may be given another text before its upgrade runs). */
const shown = new WeakMap<HTMLElement, string>();
/** Elements waiting for their text's HTML. */
const waiting = new Map<HTMLElement, { text: string; job: SliceJob }>();
let inFlight = false;

/** Uses another HTML source (tests); returns a function that restores the worker. */
export function setMarkdownSource(next: MarkdownSource): () => void {
  const previous = source;
  source = next;
  return () => {
    source = previous;
  };
}

function cached(text: string): string | undefined {
  const hit = html.get(text);
  if (hit !== undefined) {
    html.delete(text);
    html.set(text, hit);
  }
  return hit;
}

function remember(text: string, value: string) {
  html.set(text, value);
  if (html.size > CACHE_SIZE) html.delete(html.keys().next().value as string);
}

/** Rank of an element whose place is not known yet (not laid out since it came): after those on screen, before the hidden. */
const UNKNOWN_RANK = HIDDEN_RANK / 2;

/**
 * How far each waiting element was from the viewport when last laid out (0 when on screen), as an
 * IntersectionObserver reports it right after the frame's layout. Reading the element's box
 * instead (getBoundingClientRect) laid the page out inside the task that ranked (the worker's reply,
 * a slice): at 4× CPU while scrolling, 15–50 ms of forced layout in tasks of their own.
 */
const places = new WeakMap<Element, number>();
const watcher =
  typeof IntersectionObserver === 'function'
    ? new IntersectionObserver((entries) => {
        for (const e of entries) {
          const box = e.boundingClientRect;
          const bottom = e.rootBounds?.bottom ?? window.innerHeight;
          places.set(e.target, box.width === 0 && box.height === 0 ? HIDDEN_RANK : e.isIntersecting ? 0 : Math.max(0, box.top - bottom, -box.bottom));
        }
      })
    : null;

/** How far an element is from the viewport in pixels (0 when on screen), as last reported. */
function distance(el: HTMLElement): number {
  return places.get(el) ?? UNKNOWN_RANK;
}

/** Stops watching an element's place (upgraded, cancelled or given another text). */
function forget(el: HTMLElement) {
  watcher?.unobserve(el);
  places.delete(el);
}

/** Swaps the element's plain text for its sanitized markdown (code already coloured by the worker). */
function apply(el: HTMLElement, text: string, value: string) {
  waiting.delete(el);
  forget(el);
  if (!el.isConnected || shown.get(el) !== text) return;
  if (!value) {
    el.dataset.md = 'plain';
    return;
  }
  el.replaceChildren(sanitize!(value));
  // Code blocks scroll sideways: keyboard users must be able to reach them.
  for (const pre of el.querySelectorAll('pre')) pre.tabIndex = 0;
  el.dataset.md = 'html';
  swapped = el;
  long ||= value.length > LAY_OUT_IN_SLICE_MAX;
  el.dispatchEvent(new CustomEvent('rd-markdown', { bubbles: true }));
}

/** Asks the worker for the nearest waiting texts, one call at a time (stale rows are never asked for). */
function fetchSome() {
  if (inFlight) return;
  const wanted: Array<{ text: string; rank: number }> = [];
  const seen = new Set<string>();
  for (const [el, { text }] of waiting) {
    if (!el.isConnected || seen.has(text) || html.has(text)) continue;
    seen.add(text);
    wanted.push({ text, rank: distance(el) });
  }
  if (!wanted.length) return;
  wanted.sort((a, b) => a.rank - b.rank);
  const texts = wanted.slice(0, BATCH).map((w) => w.text);
  inFlight = true;
  Promise.all([source(texts), sanitize ?? loadSanitizer().then((s) => void (sanitize = s))])
    .then(([values]) => values)
    .then(
      (values) => {
        texts.forEach((text, i) => remember(text, typeof values[i] === 'string' ? values[i] : ''));
      },
      () => {
        // The worker could not help: these texts stay plain (still safe, still readable).
        for (const text of texts) remember(text, '');
      },
    )
    .finally(() => {
      inFlight = false;
      scheduler.wake();
      fetchSome();
    });
}

let fetchQueued = false;
function queueFetch() {
  if (fetchQueued) return;
  fetchQueued = true;
  // After the render that mounted the rows, so one call covers them all.
  setTimeout(() => {
    fetchQueued = false;
    fetchSome();
  }, 0);
}

/**
 * Shows `text` in `el`: plain at once, markdown as soon as its turn comes. Returns a function that
 * cancels the pending upgrade (the element unmounts or gets another text).
 */
export function showMarkdown(el: HTMLElement, text: string): () => void {
  shown.set(el, text);
  const job: SliceJob = {
    rank: () => (html.has(text) ? distance(el) : null),
    run: () => apply(el, text, html.get(text) ?? ''),
  };
  const ready = cached(text);
  if (ready !== undefined && scheduler.runNow(job)) return () => undefined;
  el.dataset.md = 'pending';
  el.textContent = text;
  if (ready === undefined) {
    waiting.set(el, { text, job });
    queueFetch();
  }
  watcher?.observe(el);
  scheduler.add(job);
  return () => {
    scheduler.cancel(job);
    waiting.delete(el);
    forget(el);
  };
}
