import { installApp, installPrompt } from '../models/install.ts';

/** "Install" where the browser offers its install prompt (Chromium's beforeinstallprompt). */
export function InstallButton() {
  if (!installPrompt.value) return null;
  return (
    <button type="button" class="install" onClick={() => void installApp()}>
      Install
    </button>
  );
}

/**
 * iPhone and iPad: there is no install prompt, and an installed web app gets storage separate from
 * Safari's, so sessions imported in Safari do not appear in the installed app. Say so before importing.
 */
export function IOSInstallAdvice() {
  return (
    <div class="advice" role="note">
      <strong>On iPhone or iPad, install first.</strong> Tap <strong>Share</strong>, then “Add to Home Screen”, and open Rho Sessions from there before
      importing: the installed app keeps its own storage, separate from Safari’s.
    </div>
  );
}
