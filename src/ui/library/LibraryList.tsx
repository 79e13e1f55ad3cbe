import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { SessionSummary } from '../models/calls.ts';
import { plural, projectName } from '../models/format.ts';
import { firstArrival, type ProjectGroup } from '../models/library.ts';
import { indexAt } from '../reader/list/VirtualList.tsx';
import { SessionCard } from './SessionCard.tsx';

/** Libraries up to this many sessions draw every card (the browser's find in page sees them all). */
export const DRAW_ALL = 150;
/** Pixels drawn above and below the window (Tab and the arrow keys move into drawn rows). */
const OVERSCAN = 800;
const CARD_GUESS = 92;
/**
 * Rows kept drawn past the one holding focus, whatever the scroll says, so the next Tab (or
 * Shift+Tab) has a card to land on even when key presses come faster than scroll events (a busy
 * phone): focus never falls out of the list. Focus this far from the window is let go.
 */
const FOCUS_AHEAD = 3;
const FOCUS_REACH = 40;
const HEAD_GUESS = 56;

type Row = { key: string; head: ProjectGroup } | { key: string; session: SessionSummary };

function ProjectHead({ group }: { group: ProjectGroup }) {
  return (
    <h2 class="project-title" title={group.cwd}>
      {projectName(group.cwd)} <span class="muted">{plural(group.sessions.length, 'session')}</span>
    </h2>
  );
}

/** The library's sessions grouped by project: every card for a small library, only those near the screen for a large one. */
export function LibraryList({ groups }: { groups: ProjectGroup[] }) {
  const count = groups.reduce((n, g) => n + g.sessions.length, 0);
  if (count > DRAW_ALL) return <WindowedList groups={groups} />;
  return <WholeList groups={groups} count={count} />;
}

/**
 * Cards added to a drawn list per frame while sessions arrive (a sync or an import bringing many at
 * once): a new card's first layout (its text shaped) is what such a frame costs, so a few a frame
 * keep each frame short on a slow phone.
 */
export const CARDS_PER_FRAME = 4;

/**
 * Every card, the first draw at once (a library read at boot, or shown again); cards that arrive
 * later (a sync bringing sessions in batches) are drawn `CARDS_PER_FRAME` a frame, so a batch of
 * a hundred costs the page a few short frames, not one long task. The project heads count every
 * session from the start.
 */
function WholeList({ groups, count }: { groups: ProjectGroup[]; count: number }) {
  // Mounted by sessions arriving into an empty library: those are drawn a few a frame too.
  const [drawn, setDrawn] = useState(() => (firstArrival() ? Math.min(count, CARDS_PER_FRAME) : count));
  useEffect(() => {
    if (drawn >= count) return;
    const frame = requestAnimationFrame(() => setDrawn((n) => Math.min(count, n + CARDS_PER_FRAME)));
    return () => cancelAnimationFrame(frame);
  }, [drawn, count]);
  let left = drawn;
  return (
    <>
      {groups.map((group) => {
        const cards = left > 0 ? group.sessions.slice(0, left) : [];
        left -= cards.length;
        return (
          <section class="project" key={group.cwd} aria-label={`Project ${projectName(group.cwd)}`}>
            <ProjectHead group={group} />
            <ul class="sessions">
              {cards.map((s) => (
                <SessionCard key={s.id} session={s} />
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}

/**
 * The list in the page's own scroll (the toolbar and header scroll away as before), drawn as the
 * reader's VirtualList draws its rows: prefix offsets over measured heights (a guess until a row is
 * measured), a binary search for the rows in the window plus an overscan, a ResizeObserver for the
 * heights; a row above the window that turns out taller or shorter moves the scroll by as much, so
 * what is on screen stays put. Heights are kept by session, so a re-sort or a rename keeps them.
 */
function WindowedList({ groups }: { groups: ProjectGroup[] }) {
  const host = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => {
    const out: Row[] = [];
    for (const g of groups) {
      out.push({ key: `p:${g.cwd}`, head: g });
      for (const s of g.sessions) out.push({ key: s.id, session: s });
    }
    return out;
  }, [groups]);
  const heights = useRef(new Map<string, number>());
  // The rows drawn (the window and its overscan) and those on screen (`seen`: drawn first while rows arrive).
  const [range, setRange] = useState({ start: 0, end: Math.min(rows.length, 30), seenStart: 0, seenEnd: Math.min(rows.length, 10) });
  const [, setTick] = useState(0);
  const elements = useRef(new Map<Element, { key: string; guess: number }>());
  // The row index holding focus (-1: none), kept drawn with its neighbours.
  const focused = useRef(-1);
  const observer = useRef<ResizeObserver | null>(null);
  // The rows drawn last time (null: none yet), the row count then, and whether rows are arriving and some are held blank.
  const drawnKeys = useRef<Set<string> | null>(null);
  const rowCount = useRef(rows.length);
  const arriving = useRef(false);
  const pending = useRef(false);

  const offsets = useMemo(() => new Float64Array(rows.length + 1), [rows]);
  const layout = () => {
    const h = heights.current;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      offsets[i + 1] = offsets[i] + (h.get(r.key) ?? ('head' in r ? HEAD_GUESS : CARD_GUESS));
    }
    return offsets;
  };

  const update = () => {
    const el = host.current;
    // Hidden (the library stays mounted under Usage): nothing to work out until it shows again.
    if (!el?.getClientRects().length) return;
    const o = layout();
    const top = -el.getBoundingClientRect().top;
    const at = (y: number) => indexAt(o, rows.length, Math.max(0, y));
    const seenStart = at(top);
    const seenEnd = Math.min(rows.length, at(top + innerHeight) + 1);
    let start = at(top - OVERSCAN);
    let end = Math.min(rows.length, at(top + innerHeight + OVERSCAN) + 1);
    const f = focused.current;
    if (f >= 0 && f < rows.length && f >= start - FOCUS_REACH && f < end + FOCUS_REACH) {
      start = Math.min(start, Math.max(0, f - FOCUS_AHEAD));
      end = Math.max(end, Math.min(rows.length, f + FOCUS_AHEAD + 1));
    }
    setRange((r) => (r.start === start && r.end === end && r.seenStart === seenStart && r.seenEnd === seenEnd ? r : { start, end, seenStart, seenEnd }));
  };
  const updateRef = useRef(update);
  updateRef.current = update;

  useEffect(() => {
    const onScroll = () => updateRef.current();
    addEventListener('scroll', onScroll, { passive: true });
    addEventListener('resize', onScroll);
    const ro = new ResizeObserver((entries) => {
      const el = host.current;
      if (!el) return;
      const listTop = el.getBoundingClientRect().top;
      let shift = 0;
      let changed = false;
      for (const entry of entries) {
        const known = elements.current.get(entry.target);
        if (known === undefined) continue;
        const { key, guess } = known;
        const row = entry.target as HTMLElement;
        const height = row.offsetHeight;
        const before = heights.current.get(key);
        // Hidden (the library under Usage) measures 0: no row is that short.
        if (before === height || height === 0) continue;
        // A row wholly above the top of the window: what is on screen moves by its change.
        const wasAbove = row.getBoundingClientRect().bottom <= 0 && listTop < 0;
        if (wasAbove) shift += height - (before ?? guess);
        heights.current.set(key, height);
        changed = true;
      }
      if (shift) scrollBy(0, shift);
      if (changed) setTick((t) => t + 1);
      updateRef.current();
    });
    observer.current = ro;
    for (const el of elements.current.keys()) ro.observe(el);
    // The list itself: shown again after Usage (its size changes from nothing), the window is worked out again.
    if (host.current) ro.observe(host.current);
    return () => {
      removeEventListener('scroll', onScroll);
      removeEventListener('resize', onScroll);
      ro.disconnect();
    };
  }, []);

  // Another list (filter, sort, import, sessions arriving): the window is worked out again (focus is
  // found again when it moves) in the next frame, where the browser lays the page out anyway: not
  // here, where reading the list's place would lay it out within the task that changed it.
  useLayoutEffect(() => {
    focused.current = -1;
    const frame = requestAnimationFrame(() => updateRef.current());
    return () => cancelAnimationFrame(frame);
  }, [rows]);

  // Rows held blank while sessions arrive: drawn in the next frame.
  useEffect(() => {
    if (!pending.current) return;
    const frame = requestAnimationFrame(() => setTick((t) => t + 1));
    return () => cancelAnimationFrame(frame);
  });

  // Forget detached rows.
  useLayoutEffect(() => {
    for (const [el] of elements.current) {
      if (!el.isConnected) {
        observer.current?.unobserve(el);
        elements.current.delete(el);
      }
    }
  });

  const measure = (key: string, guess: number) => (el: HTMLElement | null) => {
    if (!el || elements.current.get(el)?.key === key) return;
    elements.current.set(el, { key, guess });
    observer.current?.observe(el);
  };

  // Sessions arriving (a sync, an import) while the list is drawn: rows not drawn last time are
  // drawn `CARDS_PER_FRAME` a frame, those on screen first, the rest held by blank rows of their
  // height until the next.
  if (rows.length > rowCount.current && drawnKeys.current) arriving.current = true;
  rowCount.current = rows.length;
  const o = layout();
  const start = Math.min(range.start, rows.length);
  const end = Math.min(Math.max(range.end, start), rows.length);
  const shown = [];
  const before = drawnKeys.current;
  const drawnNow = new Set<string>();
  const admitted = arriving.current && before ? admit(rows, start, end, range, before) : null;
  let waiting = false;
  for (let i = start; i < end; i++) {
    const r = rows[i];
    const isNew = before !== null && !before.has(r.key);
    if (admitted && isNew && !admitted.has(i)) {
      waiting = true;
      shown.push(<div key={r.key} class="library-row" data-index={i} style={{ height: `${o[i + 1] - o[i]}px` }} />);
      continue;
    }
    drawnNow.add(r.key);
    shown.push(
      <div key={r.key} ref={measure(r.key, 'head' in r ? HEAD_GUESS : CARD_GUESS)} class={'head' in r ? 'library-row head' : 'library-row'} data-index={i}>
        {'head' in r ? (
          <ProjectHead group={r.head} />
        ) : (
          <ul class="sessions">
            <SessionCard session={r.session} />
          </ul>
        )}
      </div>,
    );
  }
  drawnKeys.current = drawnNow;
  if (!waiting) arriving.current = false;
  pending.current = waiting;
  // Focus moving through the cards draws the rows around it at once (before the next key press).
  const onFocusIn = (e: FocusEvent) => {
    const row = (e.target as HTMLElement | null)?.closest?.('.library-row') as HTMLElement | null;
    focused.current = row ? Number(row.dataset.index) : -1;
    update();
  };
  const onFocusOut = (e: FocusEvent) => {
    if (!host.current?.contains(e.relatedTarget as Node | null)) focused.current = -1;
  };
  return (
    <div ref={host} class="library-rows" style={{ height: `${o[rows.length]}px` }} data-rows={rows.length} onFocusIn={onFocusIn} onFocusOut={onFocusOut}>
      <div class="library-window" style={{ transform: `translateY(${o[start]}px)` }}>
        {shown}
      </div>
    </div>
  );
}

/** The new rows (not in `drawn`) among `start`…`end` drawn in this frame: `CARDS_PER_FRAME`, those on screen (`seen`) first. */
function admit(rows: Row[], start: number, end: number, seen: { seenStart: number; seenEnd: number }, drawn: ReadonlySet<string>): Set<number> {
  const out = new Set<number>();
  const from = Math.max(start, seen.seenStart);
  const to = Math.min(end, seen.seenEnd);
  const order = [from, to, start, from, to, end];
  for (let k = 0; k < order.length && out.size < CARDS_PER_FRAME; k += 2)
    for (let i = order[k]; i < order[k + 1] && out.size < CARDS_PER_FRAME; i++) if (!drawn.has(rows[i].key)) out.add(i);
  return out;
}
