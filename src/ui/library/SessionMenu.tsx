import { useRef } from 'preact/hooks';
import type { SessionSummary } from '../models/calls.ts';
import { copyResumeCommand, exportActiveBranch, exportOne, exportTargets, resumeCommands, type ExportTarget } from '../models/exports.ts';
import { deleteSessions } from '../models/library.ts';
import { displayTitle } from '../models/format.ts';

const TARGET_LABEL: Record<ExportTarget, string> = { download: 'Download', save: 'Save as…', share: 'Share…' };

/** A session's actions: export (download, save, share), the active branch, resume commands, rename, delete. */
export function SessionMenu({ session, onRename }: { session: SessionSummary; onRename: () => void }) {
  const details = useRef<HTMLDetailsElement>(null);
  const close = () => details.current?.removeAttribute('open');
  const act = (fn: () => unknown) => () => { close(); void fn(); };
  const targets = exportTargets();
  return (
    <details class="menu" ref={details}>
      <summary aria-label={`Actions for ${displayTitle(session)}`}>⋯</summary>
      <div class="menu-items" role="group" aria-label="Session actions">
        {targets.map((t) => <button type="button" key={t} onClick={act(() => exportOne(session.id, t))}>{TARGET_LABEL[t]}</button>)}
        <button type="button" onClick={act(() => exportActiveBranch(session.id, targets.includes('share') ? 'share' : 'download'))}>Export active branch</button>
        {resumeCommands(session).map(({ agent, command }) => (
          <button type="button" key={agent} title={command} onClick={act(() => copyResumeCommand(command))}>Copy {agent} resume command</button>
        ))}
        <button type="button" onClick={act(onRename)}>Rename</button>
        <button type="button" class="danger" onClick={act(() => deleteSessions([session.id]))}>Delete</button>
      </div>
    </details>
  );
}
