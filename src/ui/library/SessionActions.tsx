import { agentLabel, isForeignAgent } from '../../core/write/agent.ts';
import type { SessionSummary } from '../models/calls.ts';
import {
  copyResumeCommand,
  exportActiveBranch,
  exportHtmlPage,
  exportOne,
  exportPiSession,
  exportTargets,
  resumeCommands,
  type ExportTarget,
} from '../models/exports.ts';
import { displayTitle } from '../models/format.ts';
import { openShare } from '../share/share-model.ts';

const TARGET_LABEL: Record<ExportTarget, string> = { download: 'Download', save: 'Save as…', share: 'Share…' };

/**
 * What can be done with a session wherever it is (its card's menu, the reader's ⋯): the original
 * file (download, save, share), a pi session of another agent's file, a copy to share, the branch
 * (on screen in the reader, else the active one) as JSONL or a one-file web page, the resume commands.
 * `act` wraps each action (closing the menu first).
 */
export function SessionActions({
  session,
  leafId,
  onScreen = false,
  act,
}: {
  session: SessionSummary;
  leafId?: string;
  /** `leafId` is the branch on screen (the reader), not only the one last shown (a card). */
  onScreen?: boolean;
  act: (fn: () => unknown) => () => void;
}) {
  const targets = exportTargets();
  const sendTo: ExportTarget = targets.includes('share') ? 'share' : 'download';
  const foreign = isForeignAgent(session.agent);
  const hasEntries = session.entryCount > 0;
  return (
    <>
      {targets.map((t) => (
        <button type="button" key={t} onClick={act(() => exportOne(session.id, t))}>
          {TARGET_LABEL[t]}
        </button>
      ))}
      {foreign && (
        <button type="button" onClick={act(() => exportPiSession(session.id, sendTo))}>
          Export as a pi session
        </button>
      )}
      <button type="button" onClick={act(() => openShare({ id: session.id, title: displayTitle(session), leafId, empty: !hasEntries }))}>
        Share a copy…
      </button>
      {hasEntries && (
        <button type="button" onClick={act(() => exportActiveBranch(session.id, sendTo, leafId))}>
          {onScreen ? 'Export the branch on screen' : 'Export active branch'}
        </button>
      )}
      <button type="button" onClick={act(() => exportHtmlPage(session.id, sendTo, { leafId, branch: false }))}>
        Export as web page (HTML): whole session
      </button>
      {hasEntries && (
        <button type="button" onClick={act(() => exportHtmlPage(session.id, sendTo, { leafId, branch: true }))}>
          Export as web page (HTML): {onScreen ? 'branch on screen' : 'active branch'}
        </button>
      )}
      {resumeCommands(session).map(({ agent, command }) => (
        <button type="button" key={agent} title={command} onClick={act(() => copyResumeCommand(command))}>
          Copy {agentLabel(agent as SessionSummary['agent'])} resume command
        </button>
      ))}
    </>
  );
}
