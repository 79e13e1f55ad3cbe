import { chooseTheme, theme, type Theme } from '../models/settings.ts';
import { exportAll, exportTargets } from '../models/exports.ts';
import { sessions } from '../models/library.ts';
import { needsIOSInstructions } from '../models/install.ts';
import { StorageMeter } from './StorageMeter.tsx';
import { IOSInstallAdvice } from './InstallButton.tsx';
import './library.css';

const THEMES: Array<[Theme, string]> = [
  ['auto', 'System'],
  ['light', 'Light'],
  ['dark', 'Dark'],
];

/** Theme, storage, export of everything. */
export function SettingsPanel({ onClose }: { onClose: () => void }) {
  return (
    <section class="settings card" aria-label="Settings">
      <div class="settings-head">
        <h2>Settings</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <fieldset class="theme-choice">
        <legend>Theme</legend>
        {THEMES.map(([value, label]) => (
          <label key={value}>
            <input type="radio" name="theme" value={value} checked={theme.value === value} onChange={() => chooseTheme(value)} /> {label}
          </label>
        ))}
      </fieldset>
      <StorageMeter />
      {sessions.value.length > 0 && (
        <div class="row">
          <button type="button" onClick={() => void exportAll(undefined, 'download')}>
            Export everything (zip)
          </button>
          {exportTargets().includes('share') && (
            <button type="button" onClick={() => void exportAll(undefined, 'share')}>
              Share everything
            </button>
          )}
        </div>
      )}
      {needsIOSInstructions.value && <IOSInstallAdvice />}
    </section>
  );
}
