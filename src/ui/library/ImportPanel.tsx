import type { ImportOutcome, ImportReport } from '../models/calls.ts';
import { cancelImport, dismissImport, importJob } from '../models/imports.ts';
import { formatBytes, plural } from '../models/format.ts';
import { navigate } from '../router.ts';
import './library.css';
import './import.css';

const OUTCOME_LABEL: Record<ImportOutcome, string> = {
  added: 'Added',
  updated: 'Updated',
  unchanged: 'Unchanged',
  'kept-newer': 'Kept ours (newer)',
  variant: 'Kept as a variant',
  rejected: 'Rejected',
};

/** Progress while an import runs (with Cancel), then what happened to each file. */
export function ImportPanel() {
  const job = importJob.value;
  if (job.status === 'idle') return null;
  return (
    <section class="import-panel" aria-label="Import">
      {job.status === 'running' && (
        <>
          <h2>Importing {plural(job.count, 'file')}…</h2>
          <progress aria-label="Import progress" max={job.progress?.total || 1} value={job.progress ? job.progress.done : undefined} />
          <p class="muted">
            {job.progress ? `${job.progress.label ?? ''} ${formatBytes(job.progress.done)} of ${formatBytes(job.progress.total)}` : 'Reading…'}
          </p>
          <button type="button" onClick={cancelImport} disabled={job.cancelling}>
            {job.cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        </>
      )}
      {job.status === 'done' && <ReportView report={job.report} />}
      {job.status === 'failed' && <p role="alert">Import failed: {job.message}</p>}
      {job.status === 'cancelled' && <p role="status">Import cancelled. Files already stored were kept.</p>}
      {job.status !== 'running' && (
        <button type="button" onClick={dismissImport}>
          Close
        </button>
      )}
    </section>
  );
}

function ReportView({ report }: { report: ImportReport }) {
  const counts = new Map<ImportOutcome, number>();
  for (const item of report.items) counts.set(item.outcome, (counts.get(item.outcome) ?? 0) + 1);
  const summary = [...counts].map(([outcome, n]) => `${OUTCOME_LABEL[outcome]}: ${n}`).join(' · ');
  return (
    <>
      <h2>Import report</h2>
      <p role="status" class="import-summary">
        {summary || 'Nothing to import.'}
      </p>
      <ul class="report-list">
        {report.items.map((item, i) => (
          <li key={i} class={`outcome-${item.outcome}`}>
            <span class="outcome">{OUTCOME_LABEL[item.outcome]}</span>
            <span class="name">{item.title ?? item.name}</span>
            {item.title && (
              <span class="reason" title={item.name}>
                {item.name.split('/').pop()}
              </span>
            )}
            {item.reason && (
              <span class="reason">
                {item.reason}
                {item.line ? ` (line ${item.line})` : ''}
              </span>
            )}
            {!!item.problems && <span class="reason">{plural(item.problems, 'problem')} noted</span>}
            {item.id && item.outcome !== 'rejected' && (
              <button
                type="button"
                class="link"
                onClick={() => {
                  dismissImport();
                  navigate({ name: 'reader', id: item.id! });
                }}
              >
                Open
              </button>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
