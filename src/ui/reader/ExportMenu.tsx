import { exportHtmlPage, exportTargets } from '../models/exports.ts';

/** The reader's export menu: the session as a one-file web page, whole or only the branch on screen. */
export function ExportMenu({ id, leafId }: { id: string; leafId?: string }) {
  const target = exportTargets().includes('share') ? 'share' : 'download';
  const run = (branch: boolean) => (e: MouseEvent) => {
    (e.currentTarget as HTMLElement).closest('details')?.removeAttribute('open');
    void exportHtmlPage(id, target, { leafId, branch });
  };
  return (
    <details class="menu rd-export">
      <summary aria-label="Export">⋯</summary>
      <div class="menu-items" role="group" aria-label="Export">
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
