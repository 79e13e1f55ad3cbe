// The line above every item of the transcript (ItemView, AssistantItem, UserItem): who, when, label, link.
import type { RenderItem } from '../../../core/view/types.ts';
import { TagIcon } from '../icons.tsx';
import type { ReaderModel } from '../model.ts';

/** One formatter for every row: toLocaleString builds a new one per call, which costs more than the row. */
let dateFormat: Intl.DateTimeFormat | null = null;

/** Date and time of an ISO timestamp, in the reader's locale. */
export function formatTime(iso?: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  dateFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return dateFormat.format(d);
}

/** The line above an item: who, when, label, link and JSON. */
export function ItemMeta({
  item,
  model,
  who,
  icon,
  children,
}: {
  item: RenderItem;
  model: ReaderModel;
  who: string;
  icon?: preact.ComponentChildren;
  children?: preact.ComponentChildren;
}) {
  const leaf = model.view.value?.leafId;
  const editing = !!item.entryId && model.labelling.value === item.entryId;
  const href = `#/s/${encodeURIComponent(model.id)}?${new URLSearchParams({ ...(leaf ? { leaf } : {}), entry: item.entryId })}`;
  return (
    <>
      <div class="rd-meta">
        {/* What the entry is wraps inside its own box; its label button and #N stay on the first line. */}
        <span class="rd-meta-main">
          <span class="rd-who">
            {icon}
            {who}
          </span>
          {item.timestamp && <time dateTime={item.timestamp}>{formatTime(item.timestamp)}</time>}
          {item.label && (
            <span class="rd-label" title="Label">
              <TagIcon /> {item.label}
            </span>
          )}
          {children}
        </span>
        {item.entryId && model.labelUi && model.canLabel.value && <model.labelUi.Button item={item} model={model} editing={editing} />}
        {item.entryId && model.canContinue.value && (
          <button
            type="button"
            class="rd-icon rd-continue"
            aria-label="Continue from here"
            title="Continue from here (a new branch)"
            aria-pressed={model.continueFrom.value?.entryId === item.entryId}
            onClick={() => {
              model.continueFrom.value = { entryId: item.entryId, line: item.line };
            }}
          >
            ↳
          </button>
        )}
        {item.entryId && (
          <a class="rd-link" href={href} aria-label={`#${item.line}: link to this ${who.toLowerCase()}`}>
            #{item.line}
          </a>
        )}
      </div>
      {editing && model.labelUi && <model.labelUi.Form item={item} model={model} />}
    </>
  );
}
