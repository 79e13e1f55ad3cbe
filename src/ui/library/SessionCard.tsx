import { useSignal } from '@preact/signals';
import type { SessionSummary } from '../models/calls.ts';
import { displayTitle, formatBytes, formatCost, formatDate, plural, shortModel } from '../models/format.ts';
import { renameSession, selected, toggleSelected } from '../models/library.ts';
import { formatRoute, navigate } from '../router.ts';
import { SessionMenu } from './SessionMenu.tsx';

/** One session in the library: title, date, model, size, counts, cost; a tick box and a menu. */
export function SessionCard({ session }: { session: SessionSummary }) {
  const renaming = useSignal(false);
  const title = displayTitle(session);
  const facts = [
    formatDate(Date.parse(session.created) || session.modified),
    shortModel(session.model),
    formatBytes(session.size),
    plural(session.entryCount, 'entry', 'entries'),
    session.branchCount > 1 ? plural(session.branchCount, 'branch', 'branches') : '',
    formatCost(session.totals.cost),
  ].filter(Boolean);
  return (
    <li class="session-card" data-session-id={session.id}>
      <input
        type="checkbox"
        class="select"
        aria-label={`Select ${title}`}
        checked={selected.value.has(session.id)}
        onChange={() => toggleSelected(session.id)}
      />
      <div class="session-main">
        {renaming.value ? (
          <RenameForm
            initial={session.title ?? ''}
            onDone={(next) => {
              renaming.value = false;
              if (next?.trim() && next !== session.title) void renameSession(session.id, next.trim());
            }}
          />
        ) : (
          <a
            class="session-title"
            href={formatRoute({ name: 'reader', id: session.id })}
            onClick={(e) => {
              if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
              e.preventDefault();
              navigate({ name: 'reader', id: session.id });
            }}
          >
            {title}
          </a>
        )}
        <p class="facts">
          {facts.join(' · ')}
          {session.variantOf && <span class="badge">variant</span>}
          {session.problems > 0 && <span class="badge warn">{plural(session.problems, 'problem')}</span>}
        </p>
      </div>
      <SessionMenu
        session={session}
        onRename={() => {
          renaming.value = true;
        }}
      />
    </li>
  );
}

function RenameForm({ initial, onDone }: { initial: string; onDone: (title: string | null) => void }) {
  const value = useSignal(initial);
  return (
    <form
      class="rename"
      onSubmit={(e) => {
        e.preventDefault();
        onDone(value.value);
      }}
    >
      <label class="visually-hidden" for="rename-input">
        New title
      </label>
      <input
        id="rename-input"
        value={value.value}
        autoFocus
        onInput={(e) => {
          value.value = (e.target as HTMLInputElement).value;
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onDone(null);
        }}
      />
      <button type="submit" class="primary">
        Save
      </button>
      <button type="button" onClick={() => onDone(null)}>
        Cancel
      </button>
    </form>
  );
}
