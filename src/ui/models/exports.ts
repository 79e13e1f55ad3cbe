import { resumeCommands as commandsFor } from '../../core/write/resume.ts';
import { canSaveAs, canShareFiles, copyText, downloadBlob, saveBlobAs, shareBlob } from '../platform.ts';
import { describeError, isAborted, library, type Exported, type SessionSummary } from './calls.ts';
import { showToast } from './toasts.ts';
import { plural } from './format.ts';

/** Where an export goes: the downloads folder, a place the user picks, or the share sheet. */
export type ExportTarget = 'download' | 'save' | 'share';

/** The targets this browser offers (download always; save dialog and share sheet where they exist). */
export function exportTargets(): ExportTarget[] {
  return ['download', ...(canSaveAs() ? (['save'] as const) : []), ...(canShareFiles() ? (['share'] as const) : [])];
}

/** Exports one session's original bytes. */
export function exportOne(id: string, target: ExportTarget): Promise<void> {
  return deliver(() => library.exportSession({ id }), target);
}

/** Exports the active branch (or the branch ending at `leafId`) as a linear session. */
export function exportActiveBranch(id: string, target: ExportTarget, leafId?: string): Promise<void> {
  return deliver(() => library.exportBranch({ id, leafId }), target);
}

/** Exports a Claude Code or Codex session as a pi session file (its conversion), which `pi --session` continues. */
export function exportPiSession(id: string, target: ExportTarget): Promise<void> {
  return deliver(() => library.exportPiSession({ id }), target);
}

/** Exports the one-file web page of a session: the whole file opening on leafId, or (branch) only the branch ending there. */
export function exportHtmlPage(id: string, target: ExportTarget, options: { leafId?: string; branch?: boolean } = {}): Promise<void> {
  showToast('Preparing the web page…');
  return deliver(() => library.exportHtml({ id, ...options }), target);
}

/** Exports the given sessions, or all of them, as one zip bundle. */
export function exportAll(ids: string[] | undefined, target: ExportTarget): Promise<void> {
  if (ids && !ids.length) return Promise.resolve();
  showToast(ids ? `Preparing a bundle of ${plural(ids.length, 'session')}…` : 'Preparing a bundle of the whole library…');
  return deliver(() => library.exportBundle(ids ? { ids } : {}), target);
}

/** Sends an exported file where the user chose, with a toast; a failure or cancel is reported, never thrown. */
export async function deliver(make: () => Promise<Exported>, target: ExportTarget): Promise<void> {
  try {
    const { name, blob } = await make();
    if (target === 'save') {
      if (await saveBlobAs(blob, name)) showToast(`Saved ${name}.`);
    } else if (target === 'share') await shareBlob(blob, name);
    else {
      downloadBlob(blob, name);
      showToast(`Downloading ${name}.`);
    }
  } catch (e) {
    if (!isAborted(e)) showToast(`Export failed: ${describeError(e)}`);
  }
}

/** The commands that resume a session on the computer it came from, in the agent that wrote it (core `resumeCommands`). */
export function resumeCommands(s: Pick<SessionSummary, 'id' | 'cwd' | 'created' | 'agent'>): Array<{ agent: string; command: string }> {
  // A variant's store id is `<header id>~<n>` (storage/names.ts); the agent knows the header id.
  return commandsFor({ id: s.id.replace(/~\d+$/, ''), cwd: s.cwd, created: s.created, agent: s.agent ?? null });
}

/** Copies a resume command and says so. */
export async function copyResumeCommand(command: string): Promise<void> {
  try {
    await copyText(command);
    showToast(`Copied: ${command}`);
  } catch (e) {
    showToast(`Could not copy: ${describeError(e)}`);
  }
}
