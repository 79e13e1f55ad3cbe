import { useEffect } from 'preact/hooks';
import type { ContextMessageView, ContextView } from '../../../core/view/types.ts';
import { tokenChange } from '../../../core/view/figures.ts';
import { Output } from '../items/Output.tsx';
import type { ReaderModel } from '../model.ts';
import { VirtualList } from '../list/VirtualList.tsx';
import { plural } from '../../models/format.ts';
import './panel.css';
import '../list/list.css';

const REASONS: Record<ContextView['dropped'][number]['reason'], string> = {
  summarized: 'replaced by the compaction summary',
  'before-reset': 'before a context reset',
  'empty-turn': 'empty turn (no text, tool call or image)',
  retried: 'failed turn that was retried',
  'not-sent': 'not part of the model context',
  excluded: 'excluded from context by the user',
};

function Message({ message, index }: { message: ContextMessageView; index: number }) {
  return (
    <li class={`rd-ctx-msg ${message.role} ${message.summary ? 'summary' : ''}`}>
      <div class="rd-meta">
        <span class="rd-who">
          {index + 1}. {message.role}
        </span>
        {message.summary && <span class="rd-badge">compaction summary</span>}
      </div>
      {message.parts.map((part, i) => (
        <div key={i} class={`rd-ctx-part ${part.kind} ${part.isError ? 'error' : ''}`}>
          {part.kind !== 'text' && (
            <div class="rd-ctx-kind">
              {part.kind}
              {part.toolName ? `: ${part.toolName}` : ''}
              {part.synthetic && <span class="rd-badge warn">synthetic: the call never got a result</span>}
              {part.isError && !part.synthetic && <span class="rd-badge error">error</span>}
            </div>
          )}
          <Output text={part.text} lines={part.kind === 'text' && message.role !== 'tool' ? 30 : 8} />
          {part.truncated && <p class="muted rd-note">Cut for display.</p>}
        </div>
      ))}
    </li>
  );
}

/** "What the model sees": the core's context for this branch, summary first, with what is left out. */
export function ContextPanel({ model }: { model: ReaderModel }) {
  useEffect(() => {
    void model.loadContext();
  }, [model.view.value?.leafId]);
  const ctx = model.context.value;
  if (!ctx)
    return (
      <p class="rd-pad muted" role="status">
        Building the context…
      </p>
    );
  const groups = new Map<string, number>();
  for (const d of ctx.dropped) groups.set(d.reason, (groups.get(d.reason) ?? 0) + 1);
  const header = (
    <div class="rd-panel rd-context">
      <h2>What the model sees</h2>
      <p class="muted">
        {plural(ctx.messages.length, 'message')}
        {ctx.model ? ` for ${ctx.model}` : ''}, built from this branch exactly as the next request would send them (no system prompt).
        {ctx.compaction && ` A compaction replaced earlier turns (${tokenChange(ctx.compaction.tokensBefore, ctx.compaction.tokensAfter)}).`}
      </p>
      {ctx.dropped.length > 0 && (
        <details class="rd-dropped">
          <summary>
            {plural(ctx.dropped.length, 'entry', 'entries')} of the branch {ctx.dropped.length === 1 ? 'is' : 'are'} not sent:{' '}
            {[...groups].map(([r, n]) => `${n} ${REASONS[r as keyof typeof REASONS]}`).join('; ')}
          </summary>
          <ul>
            {ctx.dropped.slice(0, 300).map((d) => (
              <li key={d.entryId}>
                {d.index !== null ? (
                  <button
                    type="button"
                    class="link"
                    onClick={() => {
                      model.tab.value = 'transcript';
                      model.scrollTo(d.index!);
                    }}
                  >
                    {d.what}
                  </button>
                ) : (
                  d.what
                )}{' '}
                <span class="muted">— {REASONS[d.reason]}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
  // Long contexts are virtualized like the transcript; the header is row 0.
  return (
    <VirtualList
      count={ctx.messages.length + 1}
      version={0}
      resetKey={`ctx:${ctx.leafId}`}
      scroll={null}
      label="Model context messages"
      render={(i) =>
        i === 0 ? (
          header
        ) : (
          <ol class="rd-ctx-list" start={i}>
            <Message message={ctx.messages[i - 1]} index={i - 1} />
          </ol>
        )
      }
    />
  );
}
