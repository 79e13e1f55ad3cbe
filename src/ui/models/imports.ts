import sampleUrl from '../../../fixtures/samples/welcome.jsonl?url';
import type { Progress } from '../../worker/protocol.ts';
import { describeError, isAborted, library, type ImportReport, type ImportSource, type PathedFile } from './calls.ts';
import { refreshLibrary } from './library.ts';
import { askToPersist } from './storage.ts';
import { takeShared } from '../sw-bridge.ts';
import { takeEncrypted } from '../share/age-import.ts';
import { importJob } from './import-job.ts';

export { type ImportJob, importJob } from './import-job.ts';

let controller: AbortController | null = null;

/** Imports files (dropped, picked, shared or launched); shows progress, then the report. */
export function importFiles(incoming: Array<File | PathedFile>, source: ImportSource): Promise<ImportReport | null> {
  // .age files wait for their password (src/ui/share/AgePrompt.tsx); the rest go on at once.
  const files = takeEncrypted(incoming);
  if (!files.length) return Promise.resolve(null);
  return runImport(source, files.length, (options) => library.importFiles({ files, source }, options));
}

/** Imports pasted JSONL text. */
export function importText(text: string, name?: string): Promise<ImportReport | null> {
  return runImport('paste', 1, (options) => library.importText({ text, name }, options));
}

/** Imports the bundled sample session and returns its id (to open it). */
export async function importSample(): Promise<string | null> {
  const bytes = await (await fetch(sampleUrl)).blob();
  const report = await importFiles([new File([bytes], 'welcome.jsonl', { type: 'application/x-ndjson' })], 'picker');
  return report?.items.find((item) => item.id)?.id ?? null;
}

/** Stops the running import (what was already stored stays, and the report says so). */
export function cancelImport(): void {
  const job = importJob.value;
  // The worker stops at its next chunk; until it answers, say that the cancel was heard.
  if (job.status === 'running') importJob.value = { ...job, cancelling: true };
  controller?.abort();
}

/** Closes the report. */
export function dismissImport(): void {
  if (importJob.value.status !== 'running') importJob.value = { status: 'idle' };
}

type Call = (options: { signal: AbortSignal; onProgress: (p: Progress) => void }) => Promise<ImportReport>;

async function runImport(source: ImportSource, count: number, call: Call): Promise<ImportReport | null> {
  controller?.abort();
  const own = new AbortController();
  controller = own;
  importJob.value = { status: 'running', source, count, progress: null };
  try {
    const report = await call({
      signal: own.signal,
      onProgress: (progress) => {
        const job = importJob.value;
        if (job.status === 'running' && controller === own) importJob.value = { ...job, progress };
      },
    });
    if (controller === own) importJob.value = { status: 'done', source, report };
    if (report.items.some((i) => i.outcome === 'added' || i.outcome === 'updated' || i.outcome === 'variant')) void askToPersist();
    return report;
  } catch (e) {
    if (controller === own) {
      importJob.value = isAborted(e) ? { status: 'cancelled', source } : { status: 'failed', source, message: describeError(e) };
    }
    return null;
  } finally {
    if (controller === own) controller = null;
    void refreshLibrary();
  }
}

/** Imports what another app shared (stored by the service worker under `key`). */
export async function importShared(key: string): Promise<void> {
  const shared = await takeShared(key).catch(() => null);
  if (!shared) {
    importJob.value = {
      status: 'failed',
      source: 'share',
      message: key === 'failed' ? 'The shared files could not be received.' : 'The shared files were already imported, or are gone.',
    };
    return;
  }
  if (shared.files.length) await importFiles(shared.files, 'share');
  else if (shared.text && looksLikeJsonl(shared.text)) await importText(shared.text, shared.title ?? undefined);
  else importJob.value = { status: 'failed', source: 'share', message: 'Nothing that looks like a session was shared.' };
}

/** A cheap test before sending pasted or shared text to the worker: JSON objects, one a line. */
export function looksLikeJsonl(text: string): boolean {
  return /^\s*\{/.test(text);
}
