import { useState } from 'preact/hooks';
import type { ReaderModel } from '../model.ts';

/** The raw line of an entry, fetched when opened. */
export function RawJson({ model, entryId, summary = 'JSON' }: { model: ReaderModel; entryId: string; summary?: string }) {
  const [text, setText] = useState<string | null>(null);
  const onToggle = (e: Event) => {
    if ((e.currentTarget as HTMLDetailsElement).open && text === null) {
      model.entryJson(entryId).then(
        (line) => {
          let pretty = line;
          try {
            pretty = JSON.stringify(JSON.parse(line), null, 2);
          } catch {
            /* shown as it is */
          }
          setText(pretty.length > 200_000 ? `${pretty.slice(0, 200_000)}\n… (${pretty.length - 200_000} more characters)` : pretty);
        },
        (err) => setText(String(err?.message ?? err)),
      );
    }
  };
  return (
    <details class="rd-raw" onToggle={onToggle}>
      <summary>{summary}</summary>
      <pre tabIndex={0}>{text ?? 'Loading…'}</pre>
    </details>
  );
}
