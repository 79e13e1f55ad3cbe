import { signal } from '@preact/signals';
import { isIOS, isStandalone } from '../platform.ts';

interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** The browser's deferred install prompt, when it offered one (Chromium's beforeinstallprompt). */
export const installPrompt = signal<InstallPromptEvent | null>(null);

/** True on iPhone/iPad in Safari (not installed): the app explains "Add to Home Screen". */
export const needsIOSInstructions = signal(false);

/** True once running as an installed app. */
export const installed = signal(false);

/** Listens for the install prompt; call before the first render so the early event is not missed. */
export function watchInstall(): void {
  installed.value = isStandalone();
  needsIOSInstructions.value = isIOS() && !installed.value;
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    installPrompt.value = event as InstallPromptEvent;
  });
  window.addEventListener('appinstalled', () => {
    installPrompt.value = null;
    installed.value = true;
  });
}

/** Shows the browser's install dialog. */
export async function installApp(): Promise<void> {
  const prompt = installPrompt.value;
  if (!prompt) return;
  await prompt.prompt();
  await prompt.userChoice;
  installPrompt.value = null;
}
