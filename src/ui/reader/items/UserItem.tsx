import { useContext } from 'preact/hooks';
import type { RenderItem } from '../../../core/view/types.ts';
import { Markdown } from '../../markdown/Markdown.tsx';
import { ItemMeta } from './ItemMeta.tsx';
import { FileChip, LazyImage } from './LazyImage.tsx';
import type { ReaderModel } from '../model.ts';
import { holds, RevealContext } from './reveal.ts';
import './attachments.css';

type UserView = Extract<RenderItem, { kind: 'user' }>;

/** A user message: typed text as markdown, attachments as chips, steering and asks marked. */
export function UserItem({ item, model }: { item: UserView; model: ReaderModel }) {
  const reveal = useContext(RevealContext);
  const who = item.ask ? `Question from ${item.from ?? 'another agent'}` : item.from ? `User (from ${item.from})` : 'User';
  return (
    <div class={`rd-item rd-user ${item.steering ? 'steering' : ''} ${item.ask ? 'ask' : ''}`}>
      <ItemMeta item={item} model={model} who={who}>
        {item.steering && <span class="rd-badge">steering: sent while the agent worked</span>}
        {item.synthetic && <span class="rd-badge">automatic</span>}
      </ItemMeta>
      {item.text.trim() ? <Markdown text={item.text} /> : null}
      {item.attachments.length > 0 && (
        <ul class="rd-attachments" aria-label="Attachments">
          {item.attachments.map((a, i) => (
            <li key={i} class="rd-attachment">
              {a.image ? (
                <LazyImage image={a.image} model={model} alt={a.name} />
              ) : a.text !== undefined ? (
                <details open={holds(a.text, reveal)} key={String(holds(a.text, reveal))}>
                  <summary>
                    <FileChip name={a.name} mimeType={a.mimeType} />
                  </summary>
                  <pre>{a.text}</pre>
                </details>
              ) : (
                <FileChip name={a.name} mimeType={a.mimeType} />
              )}
              {a.about && <span class="rd-about">{a.about}</span>}
              {a.path && <code class="rd-path">{a.path}</code>}
            </li>
          ))}
        </ul>
      )}
      {item.images.map((image, i) => (
        <LazyImage key={i} image={image} model={model} alt={`Image ${i + 1} from the user`} />
      ))}
    </div>
  );
}
