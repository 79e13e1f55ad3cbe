import type { Hit } from '../../worker/share/api.ts';
import { hitsOff, kindsOff, redactedCount, review, runReview, toggleHit, toggleKind } from './share-model.ts';
import { kindLabel, kindOrder } from './kinds.ts';

/** What looks private, grouped by kind, each hit in its context with a switch; checked = redacted in the copy. */
export function ReviewPane() {
  const state = review.value;
  if (state.status === 'idle') return null;
  if (state.status === 'running')
    return (
      <p class="share-review-status" role="status">
        Looking for secrets and personal data… {state.total ? `${Math.round((100 * state.done) / state.total)} %` : ''}
      </p>
    );
  if (state.status === 'failed')
    return (
      <p class="share-review-status" role="alert">
        The review failed: {state.message}{' '}
        <button type="button" onClick={() => void runReview()}>
          Try again
        </button>
      </p>
    );
  const { counts, hits, unreadable } = state.review;
  const kinds = Object.keys(counts).sort((a, b) => kindOrder(a) - kindOrder(b) || a.localeCompare(b));
  return (
    <section class="share-review" aria-label="Review before sharing">
      <p role="status" class="share-review-status">
        {kinds.length
          ? `${redactedCount.value} of ${Object.values(counts).reduce((a, b) => a + b, 0)} found will be redacted.`
          : 'Nothing that looks private was found.'}
        {unreadable ? ` ${unreadable} unreadable line${unreadable === 1 ? '' : 's'} will be left out.` : ''}
      </p>
      {kinds.map((kind) => (
        <KindGroup key={kind} kind={kind} count={counts[kind]} hits={hits.filter((h) => h.kind === kind)} />
      ))}
    </section>
  );
}

function KindGroup({ kind, count, hits }: { kind: string; count: number; hits: Hit[] }) {
  const on = !kindsOff.value.has(kind);
  const label = kindLabel(kind);
  return (
    <div class="share-kind">
      <label class="share-kind-head">
        <input type="checkbox" checked={on} onChange={() => toggleKind(kind)} aria-label={`Redact all: ${label}`} /> {label}{' '}
        <span class="muted">({count})</span>
      </label>
      <details open={kindOrder(kind) === 0}>
        <summary>{kindOrder(kind) === 0 ? 'Hits' : 'Show the hits'}</summary>
        <ul class="share-hits">
          {hits.map((h) => (
            <li key={h.id}>
              <label>
                <input
                  type="checkbox"
                  checked={on && !hitsOff.value.has(h.id)}
                  disabled={!on}
                  onChange={() => toggleHit(h.id)}
                  aria-label={`Redact ${label.toLowerCase()} in ${h.where}, line ${h.line}`}
                />
                <span class="share-hit-where">
                  {h.where} · line {h.line}
                </span>
                <code class="share-hit-context">
                  {h.before.length >= 40 ? '…' : ''}
                  {h.before}
                  <mark>{h.match}</mark>
                  {h.after}
                  {h.after.length >= 40 ? '…' : ''}
                </code>
              </label>
            </li>
          ))}
          {count > hits.length && <li class="muted">{count - hits.length} more, not listed: they follow this group's switch.</li>}
        </ul>
      </details>
    </div>
  );
}
