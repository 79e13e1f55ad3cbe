import { autoAppend, setAutoAppend } from './auto-append.ts';
import { useSignal } from '@preact/signals';
import type { WriteBackPlan } from '../../worker/linked/api.ts';
import { describeError } from '../models/calls.ts';
import { formatBytes, plural } from '../models/format.ts';
import { sessions } from '../models/library.ts';
import {
  cancelSync,
  canLinkFolders,
  confirmWriteBack,
  type LinkedFolder,
  linkedFolders,
  linkFolder,
  linkNote,
  planWriteBack,
  reconnect,
  syncLinked,
  unlink,
} from './folders.ts';
import './linked.css';

/** What a sync did, in one line and the files gone from the folder. */
function SyncSummary({ folder }: { folder: LinkedFolder }) {
  const r = folder.report;
  if (!r) return null;
  const count = (o: string) => r.items.filter((i) => i.outcome === o).length;
  const parts = [
    count('added') && `${count('added')} added`,
    count('updated') && `${count('updated')} updated`,
    count('variant') && `${plural(count('variant'), 'variant')} kept`,
    count('rejected') && `${count('rejected')} not sessions`,
    `${r.unchanged.toLocaleString()} unchanged`,
  ].filter(Boolean);
  return (
    <div class="linked-report" role="status">
      <p>Synced (since this page opened): {parts.join(', ')}.</p>
      {r.waiting.length > 0 && <p class="muted">{plural(r.waiting.length, 'file')} still being written: the last line is read once the agent finishes it.</p>}
      {r.gone.length > 0 && (
        <details>
          <summary>{plural(r.gone.length, 'file')} no longer in the folder (kept in the library)</summary>
          <ul>
            {r.gone.map((g) => (
              <li key={g.path}>{g.path}</li>
            ))}
          </ul>
        </details>
      )}
      {r.items.some((i) => i.outcome === 'rejected') && (
        <details>
          <summary>Files that are not sessions</summary>
          <ul>
            {r.items
              .filter((i) => i.outcome === 'rejected')
              .map((i) => (
                <li key={i.name}>
                  {i.name}: {i.reason}
                </li>
              ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** The confirmation before a write-back: where, how, and every entry that will be written. */
function WriteBackDialog({ folder, plan, onClose }: { folder: LinkedFolder; plan: WriteBackPlan; onClose: () => void }) {
  return (
    <div class="linked-confirm" role="dialog" aria-modal="false" aria-label="Write back to the folder">
      <p>
        {plan.mode === 'append'
          ? `Append ${plural(plan.entries.length, 'entry', 'entries')} (${formatBytes(plan.bytes)}) to ${plan.target} in ${folder.name}. The agent's lines stay as they are.`
          : `The folder's ${plan.path} differs from the library's copy, so it is left as it is: the library's copy (${formatBytes(plan.bytes)}) goes into a new file, ${plan.target}, holding ${plural(plan.entries.length, 'entry', 'entries')} the folder's file lacks.`}
      </p>
      <ol class="linked-entries">
        {plan.entries.map((e) => (
          <li key={e.id}>{e.preview}</li>
        ))}
      </ol>
      <button
        type="button"
        class="primary"
        onClick={() => {
          onClose();
          void confirmWriteBack(folder.key, plan);
        }}
      >
        Write back
      </button>
      <button type="button" onClick={onClose}>
        Cancel
      </button>
    </div>
  );
}

/** Sessions longer in the library than in the folder, each with "Write back…". */
function WriteBacks({ folder }: { folder: LinkedFolder }) {
  const plan = useSignal<WriteBackPlan | null>(null);
  const error = useSignal<string | null>(null);
  if (!folder.longer.length && !plan.value) return null;
  const title = (id: string) => {
    const s = sessions.value.find((x) => x.id === id);
    return s?.title || s?.firstMessage?.slice(0, 60) || id;
  };
  return (
    <div class="linked-writebacks">
      <p>{plural(folder.longer.length, 'session')} grew in the library since the agent wrote them here:</p>
      <ul>
        {folder.longer.map((s) => (
          <li key={s.id}>
            {title(s.id)}{' '}
            <button
              type="button"
              onClick={async () => {
                error.value = null;
                try {
                  plan.value = await planWriteBack(folder.key, s.id);
                } catch (e) {
                  error.value = describeError(e);
                }
              }}
            >
              Write back…
            </button>
          </li>
        ))}
      </ul>
      {error.value && <p role="alert">{error.value}</p>}
      {plan.value &&
        (plan.value.mode === 'nothing' ? (
          <p role="status">The folder already holds everything the library has of this session.</p>
        ) : (
          <WriteBackDialog
            folder={folder}
            plan={plan.value}
            onClose={() => {
              plan.value = null;
            }}
          />
        ))}
    </div>
  );
}

function FolderRow({ folder }: { folder: LinkedFolder }) {
  return (
    <li class="linked-folder" data-linked={folder.name}>
      <div class="linked-head">
        <strong>{folder.name}</strong>
        <span class="spacer" />
        {folder.permission === 'granted' ? (
          folder.syncing ? (
            <button type="button" onClick={() => cancelSync(folder.key)}>
              Cancel sync
            </button>
          ) : (
            <button type="button" onClick={() => void syncLinked(folder.key)}>
              Sync now
            </button>
          )
        ) : (
          <button type="button" class="primary" onClick={() => void reconnect(folder.key)}>
            Reconnect
          </button>
        )}
        <button type="button" onClick={() => void unlink(folder.key)} aria-label={`Unlink ${folder.name}`}>
          Unlink
        </button>
      </div>
      <label class="linked-auto">
        <input
          type="checkbox"
          checked={autoAppend.value.has(folder.key)}
          onChange={(e) => void setAutoAppend(folder.key, (e.currentTarget as HTMLInputElement).checked).then(() => syncLinked(folder.key))}
        />{' '}
        Take appends from other devices by itself (a session that diverged, or a new one, still asks)
      </label>
      {folder.permission !== 'granted' && <p class="muted">The browser asks again before the app may read this folder: Reconnect.</p>}
      {folder.syncing && (
        <div>
          <progress aria-label={`Syncing ${folder.name}`} max={folder.progress?.total || 1} value={folder.progress ? folder.progress.done : undefined} />
          <span class="muted"> {folder.progress?.label ?? 'Looking for changes…'}</span>
        </div>
      )}
      {folder.error && <p role="alert">{folder.error}</p>}
      <SyncSummary folder={folder} />
      <WriteBacks folder={folder} />
    </li>
  );
}

/** Linked folders: "Link a folder" where the browser can keep a folder linked, one sentence where it cannot. */
export function LinkedFolders() {
  if (!canLinkFolders())
    return (
      <p class="muted linked-unsupported">
        This browser cannot keep a folder linked (Chromium on a desktop can); import a folder instead, again when the agent has written more.
      </p>
    );
  return (
    <section class="linked" aria-label="Linked folders">
      <div class="linked-head">
        <button type="button" onClick={() => void linkFolder()}>
          Link a folder
        </button>
        <span class="muted">~/.pi/agent/sessions, ~/.omp/agent, or any folder an agent writes in: kept in sync, followed live.</span>
      </div>
      {linkNote.value && <p role="note">{linkNote.value}</p>}
      {linkedFolders.value.length > 0 && (
        <ul class="linked-folders">
          {linkedFolders.value.map((f) => (
            <FolderRow key={f.key} folder={f} />
          ))}
        </ul>
      )}
    </section>
  );
}
