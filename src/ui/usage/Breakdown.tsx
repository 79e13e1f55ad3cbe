import type { ComponentChildren } from 'preact';
import type { UsageGroup } from '../../core/library-usage/index.ts';
import { cacheText, costShort, costText, tokens, toolErrorsText } from './format.ts';

/** A section's heading with the scope every figure in it has. */
export function Section({ title, scope, children, id }: { title: string; scope: string; children: ComponentChildren; id: string }) {
  return (
    <section class="usage-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p class="usage-scope">{scope}</p>
      {children}
    </section>
  );
}

/**
 * Groups as a ranked list with a bar each (the bar is the share of the largest; its figures are
 * written out beside it, so the list is its own table fallback).
 */
export function Breakdown({
  groups,
  name,
  limit = 8,
  empty = 'No usage in this range.',
}: {
  groups: UsageGroup[];
  name(g: UsageGroup): ComponentChildren;
  limit?: number;
  empty?: string;
}) {
  if (!groups.length) return <p class="muted">{empty}</p>;
  // Bars follow recorded cost when any group recorded one, else tokens.
  const byCost = groups.some((g) => g.cost > 0);
  const max = Math.max(...groups.map((g) => (byCost ? g.cost : g.tokens)), 0);
  const shown = groups.slice(0, limit);
  return (
    <>
      <ol class="usage-bars">
        {shown.map((g) => {
          const share = max > 0 ? (byCost ? g.cost : g.tokens) / max : 0;
          return (
            <li key={g.key}>
              <div class="usage-bar-name">{name(g)}</div>
              <div class="usage-bar-track" aria-hidden="true">
                <div class="usage-bar-fill" style={{ width: `${(share * 100).toFixed(1)}%` }} />
              </div>
              <div class="usage-bar-figures">
                <span title={costText(g)}>{costShort(g)}</span>
                <span>
                  {tokens(g.tokens)} {g.tokens === 1 ? 'token' : 'tokens'}
                </span>
                <span>cache {cacheText(g)}</span>
                <span>tool errors {toolErrorsText(g)}</span>
                <span>
                  {g.sessions} session{g.sessions === 1 ? '' : 's'}
                </span>
              </div>
            </li>
          );
        })}
      </ol>
      {groups.length > shown.length && <p class="muted">and {groups.length - shown.length} more (all of them are in the CSV export)</p>}
      {groups.some((g) => g.costedTurns > 0 && g.costedTurns < g.turns) && <p class="muted">* cost recorded for only some turns</p>}
    </>
  );
}
