import { useCallback, useEffect, useRef } from 'preact/hooks';
import { useAfterFirstFrame } from './list/after-frame.ts';
import { NewRowsPill, useFollowLive } from './list/follow.tsx';
import { useRevealMatch } from './find-reveal.ts';
import { highlightMatches } from './highlight-matches.ts';
import type { ReaderModel } from './model.ts';
import { PacedRow } from './list/paced-rows.tsx';
import { rowCost } from './list/row-cost.ts';
import { VirtualList } from './list/VirtualList.tsx';
import { plural } from '../models/format.ts';
import './transcript.css';
import './list/list.css';

/** The transcript tab: the branch's rows in a virtual list, find's marks, the "N new" pill. */
export function Transcript({ model }: { model: ReaderModel }) {
  const view = model.view.value!;
  const version = model.version.value;
  const hit = model.hits.value[model.hitAt.value]?.index ?? -1;
  const host = useRef<HTMLDivElement>(null);
  const query = model.query.value;
  useFollowLive(model, () => host.current);
  // What the current hit's row opens for: the query the hits were found for.
  const needle = model.foundFor.value.trim().toLowerCase();
  // The list comes in the task after the frame that shows the session's page (its title, tree and
  // tabs): the worker's reply builds that page and nothing else, and the list's first row is
  // built, laid out and painted a frame later, so neither task nor frame carries both.
  const listReady = useAfterFirstFrame();
  // The match itself on screen, once the row has opened what holds it.
  useRevealMatch(host, hit, needle, model.hits.value[model.hitAt.value]);
  const onTop = useCallback(
    (i: number) => {
      model.topIndex.value = i;
    },
    [model],
  );
  useEffect(() => {
    // Re-mark matches after rows change, and after markdown replaces a row's plain text (rd-markdown).
    let frame = 0;
    const mark = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => highlightMatches(host.current, model.findOpen.value ? query : ''));
    };
    mark();
    const el = host.current;
    if (query) el?.addEventListener('rd-markdown', mark);
    return () => {
      cancelAnimationFrame(frame);
      el?.removeEventListener('rd-markdown', mark);
    };
  });
  if (view.count === 0) {
    return <p class="rd-pad muted">{view.filter === 'all' ? 'This branch has no entries.' : 'Nothing on this branch matches the filter.'}</p>;
  }
  if (!listReady) return <div ref={host} class="rd-transcript" />;
  return (
    <div ref={host} class="rd-transcript">
      <VirtualList
        count={view.count}
        version={version + (model.showThinking.value ? 0.5 : 0)}
        resetKey={model.listKey.value}
        scroll={model.scroll.value}
        onTop={onTop}
        hints={model.heightHints}
        label={`Transcript: ${plural(view.count, 'item')}`}
        render={(i) => <PacedRow index={i} item={model.item(i)} model={model} hit={i === hit} reveal={i === hit ? needle : ''} />}
        cost={(i) => rowCost(model.peek(i))}
      />
      <NewRowsPill model={model} />
    </div>
  );
}
