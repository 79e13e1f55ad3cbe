import { useContext, useState } from 'preact/hooks';
import { holds, RevealContext } from './reveal.ts';
import './blocks.css';

/** Lines shown before "N more lines". */
export const PREVIEW_LINES = 12;

/** Long text as a <pre>, collapsed after a few lines with "N more lines". */
export function Output({ text, class: className = '', lines = PREVIEW_LINES }: { text: string; class?: string; lines?: number }) {
  const [userOpen, setOpen] = useState<boolean | null>(null);
  const all = text.split('\n');
  const hidden = all.length - lines;
  // The current find hit past the preview opens it (until the user closes it again).
  const reveal = useContext(RevealContext);
  const open = userOpen ?? (!!reveal && hidden > 2 && holds(all.slice(lines).join('\n'), reveal));
  const shown = open || hidden <= 2 ? text : all.slice(0, lines).join('\n');
  return (
    <div class={`rd-output ${className}`}>
      <pre tabIndex={0}>{shown}</pre>
      {hidden > 2 && (
        <button type="button" class="rd-more" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? 'Show less' : `${hidden} more lines`}
        </button>
      )}
    </div>
  );
}

/** A unified diff with added and removed lines marked. */
export function Diff({ diff }: { diff: string }) {
  const [userOpen, setOpen] = useState<boolean | null>(null);
  const all = diff.split('\n');
  const limit = 40;
  const reveal = useContext(RevealContext);
  const open = userOpen ?? (!!reveal && all.length > limit && holds(all.slice(limit).join('\n'), reveal));
  const shown = open ? all : all.slice(0, limit);
  return (
    <div class="rd-output rd-diff">
      <pre tabIndex={0}>
        {shown.map((line, i) => (
          <span key={i} class={line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('@@') ? 'hunk' : ''}>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
      {all.length > limit && (
        <button type="button" class="rd-more" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? 'Show less' : `${all.length - limit} more lines`}
        </button>
      )}
    </div>
  );
}
