import { useSignal } from '@preact/signals';
import { Component, Fragment } from 'preact';
import { agentLabel, isForeignAgent } from '../../core/write/agent.ts';
import type { SessionSummary } from '../models/calls.ts';
import { displayTitle, formatBytes, formatCost, formatDate, plural, shortModel } from '../models/format.ts';
import { renameSession, selected, sessions, subagentsOf, toggleSelected } from '../models/library.ts';
import { formatRoute, navigate } from '../router.ts';
import { SessionMenu } from './SessionMenu.tsx';

/**
 * One session in the library: title, date, model, size, counts, cost; a tick box and a menu. Drawn
 * again only when its summary is another object (the library keeps the objects of unchanged
 * sessions across refreshes) or a signal it reads changes: a sync or an import that adds sessions
 * one by one draws the new cards, not the whole list each time.
 */
export class SessionCard extends Component<{ session: SessionSummary }> {
  shouldComponentUpdate(next: { session: SessionSummary }): boolean {
    return next.session !== this.props.session;
  }

  render() {
    return <CardBody session={this.props.session} />;
  }
}

function CardBody({ session }: { session: SessionSummary }) {
  const renaming = useSignal(false);
  const title = displayTitle(session);
  // The rename field starts with the title on screen (a session without a title shows its first message).
  const renameStart = session.title?.trim() || (session.firstMessage?.trim() ? title : '');
  // [text, may break inside]: a model name may be longer than a phone is wide; the rest stay whole.
  const facts = (
    [
      [session.date ? formatDate(session.date) : '', false],
      [shortModel(session.model), true],
      [formatBytes(session.size), false],
      [plural(session.entryCount, 'entry', 'entries'), false],
      [session.branchCount > 1 ? plural(session.branchCount, 'branch', 'branches') : '', false],
      [formatCost(session.totals.cost, session.totals.tokens), false],
    ] as Array<[string, boolean]>
  ).filter(([text]) => text);
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
            initial={renameStart}
            onDone={(next) => {
              renaming.value = false;
              if (next?.trim() && next.trim() !== renameStart) void renameSession(session.id, next.trim());
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
        {session.forkOf && <ForkOf id={session.forkOf} />}
        <p class="facts">
          {/* Each fact stays whole ("3.2 KB" never breaks between number and unit); lines break between facts. */}
          {facts.map(([fact, breaks], i) => (
            <Fragment key={i}>
              {i > 0 && ' · '}
              <span class={breaks ? 'fact long' : 'fact'}>{fact}</span>
            </Fragment>
          ))}
          {isForeignAgent(session.agent) && <span class="badge agent">{agentLabel(session.agent)}</span>}
          {session.variantOf && <span class="badge">variant</span>}
          <SubagentBadge id={session.id} />
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

/** A fork says which session it came from (a fork and its parent often start alike): a link when that one is stored. */
function ForkOf({ id }: { id: string }) {
  const parent = sessions.value.find((s) => s.id === id);
  return (
    <p class="fork-of">
      {'Fork of '}
      {parent ? <a href={formatRoute({ name: 'reader', id })}>{displayTitle(parent)}</a> : 'another session'}
      {parent && ` · ${formatDate(Date.parse(parent.created) || parent.modified)}`}
    </p>
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
        onFocus={(e) => (e.currentTarget as HTMLInputElement).select()}
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

/** "1 subagent" opens the child's transcript; more open a list of them (it follows the list itself: the card does not). */
function SubagentBadge({ id }: { id: string }) {
  const children = subagentsOf.value.get(id);
  if (!children?.length) return null;
  const href = (s: SessionSummary) => formatRoute({ name: 'reader', id: s.id });
  if (children.length === 1)
    return (
      <a class="badge badge-link" href={href(children[0])}>
        1 subagent
      </a>
    );
  return (
    <details class="subagent-list">
      <summary class="badge badge-link">{plural(children.length, 'subagent')}</summary>
      <ul>
        {children.map((c) => (
          <li key={c.id}>
            <a href={href(c)}>{displayTitle(c)}</a>
          </li>
        ))}
      </ul>
    </details>
  );
}
