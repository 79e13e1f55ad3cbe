import type { RenderItem, UsageView } from '../../../core/view/types.ts';
import { useContext } from 'preact/hooks';
import { Markdown } from '../../markdown/Markdown.tsx';
import { ItemMeta } from './ItemMeta.tsx';
import { preciseCost } from '../../models/format.ts';
import { LazyImage } from './LazyImage.tsx';
import type { ReaderModel } from '../model.ts';
import { holds, RevealContext } from './reveal.ts';
import { ToolCard } from './ToolCard.tsx';
import { errorNote } from './error-note.ts';
import './blocks.css';

type AssistantView = Extract<RenderItem, { kind: 'assistant' }>;

let numberFormat: Intl.NumberFormat | null = null;
/** A count in the reader's locale (one shared formatter: rows render often while scrolling). */
const tokens = (n: number) => (numberFormat ??= new Intl.NumberFormat()).format(n);

/** Per-turn usage: tokens in, out, cache, and cost. */
function Usage({ usage }: { usage: UsageView }) {
  return (
    <dl class="rd-usage">
      <dt>in</dt>
      <dd>{tokens(usage.input)}</dd>
      <dt>out</dt>
      <dd>{tokens(usage.output)}</dd>
      <dt>cache read</dt>
      <dd>{tokens(usage.cacheRead)}</dd>
      <dt>cache write</dt>
      <dd>{tokens(usage.cacheWrite)}</dd>
      <dt>total</dt>
      <dd>{tokens(usage.totalTokens)}</dd>
      <dt>cost</dt>
      <dd>{preciseCost(usage.cost, usage.totalTokens)}</dd>
    </dl>
  );
}

/** An assistant turn: text, thinking (collapsed unless toggled on), images, tool calls with results. */
export function AssistantItem({ item, model }: { item: AssistantView; model: ReaderModel }) {
  const reveal = useContext(RevealContext);
  const hideTools = model.filter.value === 'no-tools';
  const failed = item.stopReason === 'error' || item.stopReason === 'aborted';
  const note = errorNote(item.stopReason, item.errorMessage);
  return (
    <div class={`rd-item rd-assistant ${failed ? 'error' : ''}`}>
      <ItemMeta item={item} model={model} who="Assistant">
        {item.model && <span class="rd-model">{item.model}</span>}
        {item.stopReason && item.stopReason !== 'stop' && item.stopReason !== 'toolUse' && (
          <span class={`rd-badge ${failed ? 'error' : 'warn'}`}>{item.stopReason}</span>
        )}
      </ItemMeta>
      {item.blocks.map((block, i) => {
        switch (block.kind) {
          case 'text':
            return <Markdown key={i} text={block.text} />;
          case 'thinking': {
            // Only a signature, no text: the provider returned the reasoning encrypted (e.g. Anthropic's signed thinking).
            const encrypted = block.redacted || (!block.text.trim() && block.signed === true);
            const open = model.showThinking.value || holds(block.text, reveal);
            return (
              <details key={`${i}:${open}`} class="rd-thinking" open={open}>
                <summary>
                  {block.redacted ? 'Thinking (redacted)' : encrypted ? 'Thinking (encrypted)' : block.text.trim() ? 'Thinking' : 'Thinking (empty)'}
                </summary>
                {encrypted ? (
                  <p class="muted">
                    Encrypted reasoning: the provider sent the model's thinking only as an encrypted signature, which the agent sends back to it. There is no
                    text to show.
                  </p>
                ) : block.text.trim() ? (
                  <Markdown text={block.text} />
                ) : (
                  <p class="muted">The model's thinking was empty.</p>
                )}
              </details>
            );
          }
          case 'image':
            return <LazyImage key={i} image={block.image} model={model} alt={`Picture made by the model (${i + 1})`} />;
          case 'tool':
            return hideTools ? null : <ToolCard key={i} tool={block.tool} model={model} />;
          case 'other':
            return (
              <details key={i} class="rd-small">
                <summary>{block.type}</summary>
                <pre>{block.json}</pre>
              </details>
            );
        }
      })}
      {note && (
        <p class="rd-error" role="note">
          ⚠ {note}
        </p>
      )}
      {item.usage && (
        <details class="rd-usage-box" open={model.showUsage.value} key={String(model.showUsage.value)}>
          <summary>
            Usage: {tokens(item.usage.totalTokens)} {item.usage.totalTokens === 1 ? 'token' : 'tokens'} · {preciseCost(item.usage.cost, item.usage.totalTokens)}
          </summary>
          <Usage usage={item.usage} />
        </details>
      )}
    </div>
  );
}
