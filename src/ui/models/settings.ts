import { signal } from '@preact/signals';
import { get, set } from 'idb-keyval';

/** The colour theme: follow the system, or force light or dark. */
export type Theme = 'auto' | 'light' | 'dark';

/** The chosen theme (applied as `data-theme` on <html>). */
export const theme = signal<Theme>('auto');

const THEME_KEY = 'ui.theme';

/** Reads saved settings and applies them. */
export async function loadSettings(): Promise<void> {
  try {
    const saved = await get<Theme>(THEME_KEY);
    if (saved === 'light' || saved === 'dark' || saved === 'auto') applyTheme(saved);
  } catch {
    // IndexedDB can be unavailable (some private windows): the defaults stand.
  }
}

/** Applies and remembers a theme. */
export function chooseTheme(next: Theme): void {
  applyTheme(next);
  void set(THEME_KEY, next).catch(() => undefined);
}

function applyTheme(next: Theme): void {
  theme.value = next;
  document.documentElement.dataset.theme = next;
}
