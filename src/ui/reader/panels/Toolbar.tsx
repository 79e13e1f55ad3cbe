import type { ComponentChildren } from 'preact';
import type { ItemFilter } from '../../../core/view/types.ts';
import type { ReaderModel, ReaderTab } from '../model.ts';

const TABS: Array<[ReaderTab, string, string]> = [
  ['transcript', 'Transcript', 'Transcript'],
  ['context', 'What the model sees', 'Model sees'],
  ['stats', 'Stats', 'Stats'],
];

const FILTERS: Array<[ItemFilter, string]> = [
  ['all', 'Everything'],
  ['no-tools', 'No tools'],
  ['user', 'User messages only'],
  ['labelled', 'Labelled only'],
];

/**
 * The reader's tabs, and on the transcript its filter and the thinking and usage toggles.
 * `controls`: the filter's <select> is in (until the page's first frame, a stub of its text).
 */
export function ReaderToolbar({ model, controls, children }: { model: ReaderModel; controls: boolean; children?: ComponentChildren }) {
  const tab = model.tab.value;
  return (
    <div class="rd-toolbar" id="rd-toolbar">
      <div role="tablist" aria-label="Views" class="rd-tabs">
        {TABS.map(([key, label, short]) => (
          <button
            key={key}
            type="button"
            role="tab"
            id={`rd-tab-${key}`}
            aria-selected={tab === key}
            aria-controls="rd-main"
            onClick={() => {
              model.tab.value = key;
            }}
          >
            {short === label ? (
              label
            ) : (
              <>
                <span class="rd-hide-narrow">{label}</span>
                <span class="rd-show-narrow">{short}</span>
              </>
            )}
          </button>
        ))}
      </div>
      {tab === 'transcript' && (
        <div class="rd-options">
          {controls ? (
            <select
              aria-label="Show"
              value={model.filter.value}
              onChange={(e) => void model.setFilter((e.currentTarget as HTMLSelectElement).value as ItemFilter)}
            >
              {FILTERS.map(([key, label]) => (
                <option key={key} value={key}>
                  {label}
                </option>
              ))}
            </select>
          ) : (
            <span class="rd-select-stub" aria-hidden="true">
              {FILTERS.find(([key]) => key === model.filter.value)?.[1]}
            </span>
          )}
          <button
            type="button"
            aria-pressed={model.showThinking.value}
            onClick={() => {
              model.showThinking.value = !model.showThinking.value;
            }}
          >
            Thinking
          </button>
          <button
            type="button"
            aria-pressed={model.showUsage.value}
            onClick={() => {
              model.showUsage.value = !model.showUsage.value;
            }}
          >
            Usage
          </button>
        </div>
      )}
      {children}
    </div>
  );
}
