import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { isForeignAgent } from '../../core/write/agent.ts';
import type { SessionSummary } from '../models/calls.ts';
import { deleteSessions } from '../models/library.ts';
import { displayTitle } from '../models/format.ts';
import { shownBranch } from '../models/shown-branch.ts';
import { SessionActions } from './SessionActions.tsx';

/**
 * A session's actions (SessionActions.tsx), then rename and delete. The actions are drawn when the
 * menu opens, not with the card: a card is drawn with its ⋯ alone, so a list that draws many cards
 * at once (a sync bringing sessions in) makes and lays out half the elements.
 */
export function SessionMenu({ session, onRename }: { session: SessionSummary; onRename: () => void }) {
  const details = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const close = () => details.current?.removeAttribute('open');
  useCloseOnOutside(details);
  useLayoutEffect(() => {
    if (open) keepOnScreen(details.current);
  }, [open]);
  const act = (fn: () => unknown) => () => {
    close();
    void fn();
  };
  // Claude Code and Codex files are never written to: no rename.
  const foreign = isForeignAgent(session.agent);
  return (
    <details class="menu" ref={details} onToggle={() => setOpen(details.current?.open ?? false)}>
      <summary aria-label={`Actions for ${displayTitle(session)}`}>⋯</summary>
      {open && (
        <div class="menu-items" role="group" aria-label="Session actions">
          <SessionActions session={session} leafId={shownBranch(session.id)} act={act} />
          {!foreign && (
            <button type="button" onClick={act(onRename)}>
              Rename
            </button>
          )}
          <button type="button" class="danger" onClick={act(() => deleteSessions([session.id]))}>
            Delete
          </button>
        </div>
      )}
    </details>
  );
}

/** A <details> menu closes on Escape and on a tap elsewhere, like a native menu. */
export function useCloseOnOutside(ref: { current: HTMLDetailsElement | null }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !ref.current?.open) return;
      ref.current.removeAttribute('open');
      ref.current.querySelector('summary')?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (ref.current?.open && !ref.current.contains(e.target as Node)) ref.current.removeAttribute('open');
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, []);
}

/** Margin the open menu keeps from the screen's edges (px). */
const EDGE = 12;

/** Shifts an open menu sideways so it does not touch (or cross) either edge of the screen. */
export function keepOnScreen(menu: HTMLDetailsElement | null) {
  const items = menu?.querySelector<HTMLElement>('.menu-items');
  if (!menu?.open || !items) return;
  items.style.setProperty('--menu-shift', '0px');
  const box = items.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  let shift = 0;
  if (box.right > width - EDGE) shift = width - EDGE - box.right;
  if (box.left + shift < EDGE) shift = EDGE - box.left;
  items.style.setProperty('--menu-shift', `${shift}px`);
}
