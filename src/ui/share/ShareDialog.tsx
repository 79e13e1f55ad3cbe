import { useEffect, useRef } from 'preact/hooks';
import { exportTargets, type ExportTarget } from '../models/exports.ts';
import { ReviewPane } from './ReviewPane.tsx';
import {
  closeShare,
  exportShare,
  exporting,
  format,
  formats,
  htmlAsAge,
  markdownImages,
  markdownMode,
  markdownThinking,
  password,
  redactedCount,
  scope,
  setScope,
  shareTarget,
} from './share-model.ts';
import { StripOptions } from './StripOptions.tsx';

const TARGET_LABEL: Record<ExportTarget, string> = { download: 'Download', save: 'Save as…', share: 'Share…' };
const FORMAT_LABEL = { jsonl: 'Cleaned session (JSONL)', markdown: 'Markdown', html: 'One-file HTML page' } as const;

/** The share dialog: format, scope, review of what looks private, strip options, password, then where it goes. */
export function ShareDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const target = shareTarget.value;
  useEffect(() => {
    if (target && !dialog.current?.open) dialog.current?.showModal();
  }, [target]);
  if (!target) return null;
  const radio = <T extends string>(name: string, value: T, current: T, set: (v: T) => void, label: string, disabled = false) => (
    <label key={value}>
      <input type="radio" name={name} value={value} checked={current === value} disabled={disabled} onChange={() => set(value)} /> {label}
    </label>
  );
  return (
    <dialog ref={dialog} class="share-dialog" aria-labelledby="share-title" aria-describedby="share-of" onClose={closeShare}>
      <form method="dialog" onSubmit={(e) => e.preventDefault()}>
        <h2 id="share-title">Share a copy</h2>
        <p class="share-of" id="share-of">
          {target.title}
        </p>
        <p class="muted">A copy is made for sharing; the stored session does not change.</p>
        <fieldset>
          <legend>Format</legend>
          {(['jsonl', 'markdown', 'html'] as const).map((f) =>
            radio(
              'share-format',
              f,
              format.value,
              (v) => (format.value = v),
              FORMAT_LABEL[f] + (formats.value.includes(f) ? '' : ' (not in this build)'),
              !formats.value.includes(f),
            ),
          )}
        </fieldset>
        {format.value === 'markdown' && (
          <fieldset>
            <legend>Markdown</legend>
            {radio('share-md-mode', 'full', markdownMode.value, (v) => (markdownMode.value = v), 'Full (tool calls and results)')}
            {radio('share-md-mode', 'focused', markdownMode.value, (v) => (markdownMode.value = v), 'Focused (what was said, one line per tool call)')}
            <label>
              <input
                type="checkbox"
                checked={markdownThinking.value}
                onChange={(e) => (markdownThinking.value = (e.currentTarget as HTMLInputElement).checked)}
              />{' '}
              Thinking
            </label>
            <label>
              <input
                type="checkbox"
                checked={markdownImages.value === 'files'}
                onChange={(e) => (markdownImages.value = (e.currentTarget as HTMLInputElement).checked ? 'files' : 'omit')}
              />{' '}
              Images as files beside it (a zip)
            </label>
          </fieldset>
        )}
        {!target.empty && (
          <fieldset>
            <legend>What</legend>
            {radio('share-scope', 'session', scope.value, setScope, 'The whole session')}
            {radio('share-scope', 'branch', scope.value, setScope, target.leafId ? 'The branch on screen' : 'The active branch')}
          </fieldset>
        )}
        <ReviewPane />
        <StripOptions />
        <fieldset>
          <legend>Password (optional)</legend>
          <input
            type="password"
            autocomplete="new-password"
            aria-label="Password"
            value={password.value}
            onInput={(e) => (password.value = (e.currentTarget as HTMLInputElement).value)}
          />
          <p class="muted">
            {format.value === 'html' && !htmlAsAge.value ? 'The page asks for it when opened.' : 'Encrypted with age: opens here or with age -d.'}
          </p>
          {format.value === 'html' && password.value && (
            <label>
              <input type="checkbox" checked={htmlAsAge.value} onChange={(e) => (htmlAsAge.value = (e.currentTarget as HTMLInputElement).checked)} /> As an .age
              file instead
            </label>
          )}
        </fieldset>
        <div class="dialog-actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            Close
          </button>
          {exportTargets().map((t) => (
            <button type="button" key={t} class={t === 'download' ? 'primary' : ''} disabled={exporting.value} onClick={() => void exportShare(t)}>
              {TARGET_LABEL[t]}
            </button>
          ))}
        </div>
        <p class="muted" role="status">
          {exporting.value ? 'Making the copy…' : `${redactedCount.value} redacted in the copy.`}
        </p>
      </form>
    </dialog>
  );
}
