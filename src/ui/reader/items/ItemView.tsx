import { Component } from 'preact';
import { useContext } from 'preact/hooks';
import type { RenderItem } from '../../../core/view/types.ts';
import { tokenChange } from '../../../core/view/figures.ts';
import { Markdown } from '../../markdown/Markdown.tsx';
import { AssistantItem } from './AssistantItem.tsx';
import { LazyImage } from './LazyImage.tsx';
import type { ReaderModel } from '../model.ts';
import { Output } from './Output.tsx';
import { RawJson } from './RawJson.tsx';
import { SubagentLinks } from '../panels/Subagents.tsx';
import { holds, RevealContext } from './reveal.ts';
import { ToolCard } from './ToolCard.tsx';
import { AlertIcon, BranchIcon, InfoIcon, TagIcon } from '../icons.tsx';
import { UserItem } from './UserItem.tsx';
import { ItemMeta } from './ItemMeta.tsx';
import './items.css';

/** Where other branches leave this entry. */
function Forks({ item, model }: { item: RenderItem; model: ReaderModel }) {
  if (!item.forks?.length) return null;
  return (
    <div class="rd-forks">
      <BranchIcon />
      <span>{item.forks.length === 1 ? 'Another branch leaves here:' : `${item.forks.length} other branches leave here:`}</span>
      {item.forks.map((fork) => (
        <a key={fork.leafId} class="rd-fork" href={`#/s/${encodeURIComponent(model.id)}?leaf=${encodeURIComponent(fork.leafId)}`}>
          {fork.preview || fork.leafId}
        </a>
      ))}
    </div>
  );
}

function Body({ item, model }: { item: RenderItem; model: ReaderModel }) {
  const reveal = useContext(RevealContext);
  switch (item.kind) {
    case 'user':
      return <UserItem item={item} model={model} />;
    case 'assistant':
      return <AssistantItem item={item} model={model} />;
    case 'toolResult':
      return (
        <div class="rd-item rd-toolresult">
          <ItemMeta item={item} model={model} who="Tool result" />
          <ToolCard tool={item.tool} model={model} orphan />
        </div>
      );
    case 'bash':
      return (
        <div class={`rd-item rd-bash ${item.exitCode ? 'error' : ''}`}>
          <ItemMeta item={item} model={model} who={item.language === 'bash' ? 'User shell command' : 'User Python'}>
            {item.exitCode !== null && <span class={`rd-badge ${item.exitCode ? 'error' : ''}`}>exit {item.exitCode}</span>}
            {item.cancelled && <span class="rd-badge warn">cancelled</span>}
            {item.excluded && <span class="rd-badge">not sent to the model</span>}
          </ItemMeta>
          <pre class="rd-cmd">
            {item.language === 'bash' ? '$ ' : '>>> '}
            {item.command}
          </pre>
          <Output text={item.output || '(no output)'} />
          {item.truncated && <p class="muted rd-note">Output was truncated by the agent.</p>}
          {item.images.map((image, i) => (
            <LazyImage key={i} image={image} model={model} alt={`Command image ${i + 1}`} />
          ))}
        </div>
      );
    case 'notice':
      return (
        <div class={`rd-item rd-notice ${item.notice}`} role={item.notice === 'error' ? 'note' : undefined}>
          <ItemMeta
            item={item}
            model={model}
            who={item.notice === 'error' ? 'Error' : item.notice === 'aside' ? 'Aside' : 'Notice'}
            icon={item.notice === 'error' ? <AlertIcon /> : item.notice === 'notice' ? <InfoIcon /> : undefined}
          >
            <span class="muted">{item.customType}</span>
          </ItemMeta>
          <Markdown text={item.text} />
          {item.images.map((image, i) => (
            <LazyImage key={i} image={image} model={model} alt={`Notice image ${i + 1}`} />
          ))}
        </div>
      );
    case 'custom':
      return (
        <div class="rd-item rd-custom">
          <ItemMeta item={item} model={model} who="Custom message">
            <span class="rd-badge">{item.customType}</span>
            {!item.display && <span class="rd-badge">hidden in the agent</span>}
          </ItemMeta>
          <Markdown text={item.text} />
          {item.images.map((image, i) => (
            <LazyImage key={i} image={image} model={model} alt={`Message image ${i + 1}`} />
          ))}
        </div>
      );
    case 'divider':
      return (
        <div class={`rd-divider ${item.type}`}>
          <span>{item.text}</span>
        </div>
      );
    case 'compaction':
      return (
        <details class="rd-item rd-compaction" open={holds(item.summary, reveal)} key={String(holds(item.summary, reveal))}>
          <summary>
            <span class="rd-divider-text">
              Compaction{item.method ? ` (${item.method})` : ''}: {tokenChange(item.tokensBefore, item.tokensAfter)}
            </span>
          </summary>
          <p class="muted">
            The model saw this summary instead of the conversation before{' '}
            {item.firstKeptIndex !== null ? (
              <button type="button" class="link" onClick={() => model.scrollTo(item.firstKeptIndex!)}>
                the first kept entry
              </button>
            ) : (
              'this point'
            )}
            .
          </p>
          <Markdown text={item.summary} />
          <ItemMeta item={item} model={model} who="Compaction" />
        </details>
      );
    case 'branchSummary':
      return (
        <div class="rd-item rd-branchsummary">
          <ItemMeta item={item} model={model} who="Branch summary">
            <span class="muted">from {item.fromId}</span>
          </ItemMeta>
          <Markdown text={item.summary || '(empty: a marker only)'} />
        </div>
      );
    case 'labelChange': {
      const leaf = model.view.value?.leafId;
      const target = `#/s/${encodeURIComponent(model.id)}?${new URLSearchParams({ ...(leaf ? { leaf } : {}), entry: item.targetId })}`;
      return (
        <div class="rd-divider label">
          <TagIcon />
          <span>
            {item.text ? `Labelled “${item.text}”` : 'Label cleared'}
            {' on '}
            {item.targetLine ? (
              <a href={target} class="rd-label-target">
                #{item.targetLine}
                {item.targetPreview ? ` “${item.targetPreview}”` : ''}
              </a>
            ) : (
              'an entry that is not in this file'
            )}
          </span>
        </div>
      );
    }
    case 'state':
      return (
        <details class="rd-small" open={holds(item.text, reveal)} key={String(holds(item.text, reveal))}>
          <summary>
            {item.type}
            {item.summary ? `: ${item.summary}` : item.text ? `: ${item.text.split('\n')[0].slice(0, 100)}` : ''}
          </summary>
          <pre>{item.text}</pre>
          <RawJson model={model} entryId={item.entryId} />
        </details>
      );
    case 'unknown':
      return (
        <div class="rd-small rd-unknown">
          <RawJson model={model} entryId={item.entryId} summary={`unknown entry: ${item.type}`} />
        </div>
      );
    case 'folded':
      return null;
  }
}

/** One transcript row: the item, its fork markers, a placeholder while it loads. `reveal`: the find query when this row holds the current hit. */
export function ItemView({ item, model, hit, reveal = '' }: { item: RenderItem | undefined; model: ReaderModel; hit: boolean; reveal?: string }) {
  if (!item) return <div class="rd-placeholder" aria-busy="true" />;
  // A tool result shown inside its call's row: nothing of its own.
  if (item.kind === 'folded') return null;
  return (
    <div class={`rd-row ${hit ? 'hit' : ''}`} data-entry={item.entryId}>
      {/* Only the current hit's row gets a provider (the default '' serves every other row at no cost). */}
      {hit && reveal ? (
        <RevealContext.Provider value={reveal}>
          <Body item={item} model={model} />
        </RevealContext.Provider>
      ) : (
        <Body item={item} model={model} />
      )}
      <SubagentLinks item={item} model={model} />
      <Forks item={item} model={model} />
    </div>
  );
}

type ItemProps = { item: RenderItem | undefined; model: ReaderModel; hit: boolean; reveal?: string };

/**
 * An ItemView that renders again only when its own props change. The list re-renders on every
 * measurement and scroll step; the rows' contents read their toggles from signals, which re-render
 * them by themselves.
 */
export class ItemRow extends Component<ItemProps> {
  shouldComponentUpdate(next: ItemProps): boolean {
    return next.item !== this.props.item || next.hit !== this.props.hit || next.model !== this.props.model || next.reveal !== this.props.reveal;
  }

  render({ item, model, hit, reveal }: ItemProps) {
    return <ItemView item={item} model={model} hit={hit} reveal={reveal} />;
  }
}
