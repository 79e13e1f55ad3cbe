import type { RenderItem } from '../../../core/view/types.ts';
import type { ReaderModel } from '../model.ts';
import { displayTitle, plural, preciseCost } from '../../models/format.ts';
import './subagents.css';

const href = (id: string, entry?: string) => `#/s/${encodeURIComponent(id)}${entry ? `?entry=${encodeURIComponent(entry)}` : ''}`;
const titleOf = (s: { title: string | null; firstMessage: string | null; id: string }) => s.title || s.firstMessage?.slice(0, 80) || s.id;

/** At the top of a subagent transcript: the session that ran it, and a way back to the entry that started it. */
export function ParentBanner({ model }: { model: ReaderModel }) {
  const family = model.family.value;
  const parent = family?.parent;
  if (!parent) return null;
  const entry = model.view.value && family.self?.subagent?.entryId;
  return (
    <nav class="rd-subagent-of" aria-label="Subagent of">
      <span>Subagent transcript{family.self?.subagent?.name ? ` (${family.self.subagent.name})` : ''} of </span>
      <a href={href(parent.id, entry ?? undefined)}>← {titleOf(parent)}</a>
    </nav>
  );
}

/** At the top of a fork: the session it came from (a fork and its parent often start alike). */
export function ForkBanner({ model }: { model: ReaderModel }) {
  const family = model.family.value;
  if (!family?.self?.forkOf) return null;
  const from = family.forkOf;
  return (
    <nav class="rd-subagent-of" aria-label="Fork of">
      <span>Fork of </span>
      {from ? <a href={href(from.id)}>← {displayTitle(from)}</a> : <span>another session ({family.self.forkOf})</span>}
    </nav>
  );
}

/** Under the entry that started subagent runs (a custom message or the turn with the tool call): links to their transcripts. */
export function SubagentLinks({ item, model }: { item: RenderItem; model: ReaderModel }) {
  const started = model.family.value?.children.filter((c) => c.subagent?.entryId === item.entryId) ?? [];
  if (!started.length) return null;
  return (
    <ul class="rd-subagents" aria-label="Subagent transcripts started here">
      {started.map((c) => (
        <li key={c.id}>
          <a href={href(c.id)}>
            Subagent transcript: {c.subagent?.name ?? titleOf(c)}
            {c.subagent?.toolCallId ? ` (tool call ${c.subagent.toolCallId})` : ''}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** In the stats: this session's totals alone and with every subagent transcript below it. */
export function FamilyTotals({ model }: { model: ReaderModel }) {
  const family = model.family.value;
  if (!family || family.descendants === 0) return null;
  const rows: Array<[string, (t: { tokens: number; output: number; cost: number }) => string]> = [
    ['Total tokens', (t) => t.tokens.toLocaleString()],
    ['Output tokens', (t) => t.output.toLocaleString()],
    ['Cost', (t) => preciseCost(t.cost, t.tokens)],
  ];
  return (
    <table class="rd-stats-table rd-family-totals">
      <caption>With subagents ({plural(family.descendants, 'transcript')})</caption>
      <thead>
        <tr>
          <th scope="col">
            <span class="rd-sr">Measure</span>
          </th>
          <th scope="col">This session alone</th>
          <th scope="col">With its subagents</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, get]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{get(family.own)}</td>
            <td>{get(family.withSubagents)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
