import { signal } from '@preact/signals';

/** A short message at the bottom of the screen, with an optional action (e.g. Undo). */
export interface Toast {
  id: number;
  text: string;
  action?: { label: string; run: () => void };
}

/** The messages on screen, oldest first. */
export const toasts = signal<Toast[]>([]);

let nextId = 1;

/** Shows a message for a while (longer when it offers an action). */
export function showToast(text: string, action?: Toast['action'], ms = action ? 10_000 : 5_000): number {
  const id = nextId++;
  toasts.value = [...toasts.value, { id, text, action }];
  setTimeout(() => dismissToast(id), ms);
  return id;
}

/** Removes a message. */
export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}
