import { useEffect, useState } from 'preact/hooks';
import { isForeignAgent } from '../../../core/write/agent.ts';
import { library } from '../../models/calls.ts';
import { exportHtmlPage, exportPiSession, exportTargets } from '../../models/exports.ts';

/** The reader's export menu: the session as a one-file web page, whole or only the branch on screen; a Claude Code or Codex session as a pi session. */
export function ExportMenu({ id, leafId }: { id: string; leafId?: string }) {
  const target = exportTargets().includes('share') ? 'share' : 'download';
  const [foreign, setForeign] = useState(false);
  useEffect(() => {
    let live = true;
    library
      .getSession({ id })
      .then((s) => live && setForeign(isForeignAgent(s.agent)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [id]);
  const run = (branch: boolean) => (e: MouseEvent) => {
    (e.currentTarget as HTMLElement).closest('details')?.removeAttribute('open');
    void exportHtmlPage(id, target, { leafId, branch });
  };
  return (
    <details class="menu rd-export">
      <summary aria-label="Export">⋯</summary>
      <div class="menu-items" role="group" aria-label="Export">
        {foreign && (
          <button
            type="button"
            onClick={(e) => {
              (e.currentTarget as HTMLElement).closest('details')?.removeAttribute('open');
              void exportPiSession(id, target);
            }}
          >
            Export as a pi session
          </button>
        )}
        <button type="button" onClick={run(false)}>
          Export as web page (HTML): whole session
        </button>
        <button type="button" onClick={run(true)}>
          Export as web page (HTML): branch on screen
        </button>
      </div>
    </details>
  );
}
