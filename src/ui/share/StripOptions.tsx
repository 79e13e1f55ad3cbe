import type { StripOptions as Strip } from '../../worker/share/api.ts';
import { strip } from './share-model.ts';

const OPTIONS: Array<[keyof Strip, string]> = [
  ['thinking', 'Thinking'],
  ['signatures', 'Thinking signatures and encrypted reasoning'],
  ['providerPayloads', 'Provider payloads'],
  ['toolDetails', 'Tool details (host data)'],
  ['images', 'Images'],
];

/** What to leave out of the copy. */
export function StripOptions() {
  const s = strip.value;
  const set = (patch: Partial<Strip>) => {
    strip.value = { ...strip.value, ...patch };
  };
  return (
    <fieldset class="share-strip">
      <legend>Leave out</legend>
      {OPTIONS.map(([key, label]) => (
        <label key={key}>
          <input type="checkbox" checked={Boolean(s[key])} onChange={(e) => set({ [key]: (e.currentTarget as HTMLInputElement).checked })} /> {label}
        </label>
      ))}
      <label>
        <input
          type="checkbox"
          checked={Boolean(s.toolOutputLines)}
          onChange={(e) => set({ toolOutputLines: (e.currentTarget as HTMLInputElement).checked ? 50 : 0 })}
        />{' '}
        Tool output past{' '}
        <input
          type="number"
          min={1}
          class="share-lines"
          aria-label="Lines of tool output kept"
          value={s.toolOutputLines || 50}
          disabled={!s.toolOutputLines}
          onInput={(e) => set({ toolOutputLines: Math.max(1, Number((e.currentTarget as HTMLInputElement).value) || 1) })}
        />{' '}
        lines
      </label>
    </fieldset>
  );
}
