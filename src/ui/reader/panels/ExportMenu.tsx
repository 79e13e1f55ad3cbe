import { useEffect, useRef, useState } from 'preact/hooks';
import { library, type SessionSummary } from '../../models/calls.ts';
import { SessionActions } from '../../library/SessionActions.tsx';
import { keepOnScreen, useCloseOnOutside } from '../../library/SessionMenu.tsx';

/** The reader's ⋯ menu: the session's actions as its card has them (SessionActions.tsx), for the branch on screen. */
export function ExportMenu({ id, leafId }: { id: string; leafId?: string }) {
  const details = useRef<HTMLDetailsElement>(null);
  const [session, setSession] = useState<SessionSummary | null>(null);
  useCloseOnOutside(details);
  useEffect(() => {
    let live = true;
    library
      .getSession({ id })
      .then((s) => live && setSession(s))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [id]);
  const act = (fn: () => unknown) => () => {
    details.current?.removeAttribute('open');
    void fn();
  };
  return (
    <details class="menu rd-export" ref={details} onToggle={() => keepOnScreen(details.current)}>
      <summary aria-label="More actions">⋯</summary>
      <div class="menu-items" role="group" aria-label="Session actions">
        {session ? <SessionActions session={session} leafId={leafId} onScreen act={act} /> : <p class="muted">Reading the session…</p>}
      </div>
    </details>
  );
}
