// "Take appends from other devices by itself": for a linked folder the user allowed it, a session
// that only grew in the library (the folder's file is a byte prefix of ours) is appended back to
// the agent's file without asking. Anything else (a divergence, a new file) still waits for the
// user's "Write back…". The write-back rules are the worker's: append-only, refused when the agent
// wrote in between.
import { signal } from '@preact/signals';
import { createStore, get, set } from 'idb-keyval';
import type { LinkedSession } from '../../worker/linked/api.ts';
import { library } from '../models/calls.ts';

const db = createStore('rho-linked-auto', 'auto');

/** The keys of the folders that take pure appends by themselves. */
export const autoAppend = signal<ReadonlySet<string>>(new Set());

let loaded: Promise<void> | null = null;
function load(): Promise<void> {
  loaded ??= get<string[]>('keys', db)
    .then((keys) => {
      autoAppend.value = new Set(keys ?? []);
    })
    .catch(() => undefined);
  return loaded;
}

/** Turns "take appends by itself" on or off for a folder. */
export async function setAutoAppend(key: string, on: boolean): Promise<void> {
  await load();
  const next = new Set(autoAppend.value);
  if (on) next.add(key);
  else next.delete(key);
  autoAppend.value = next;
  await set('keys', [...next], db);
}

/**
 * Appends back the sessions of `longer` that only grew, for a folder that allows it; gives back
 * the ones still waiting for the user (and how many were appended).
 */
export async function takeAppends(
  key: string,
  handle: FileSystemDirectoryHandle,
  longer: LinkedSession[],
): Promise<{ left: LinkedSession[]; appended: string[] }> {
  await load();
  if (!autoAppend.value.has(key) || !longer.length) return { left: longer, appended: [] };
  const left: LinkedSession[] = [];
  const appended: string[] = [];
  for (const s of longer) {
    try {
      const plan = await library.planWriteBack({ key, handle, id: s.id });
      if (plan.mode !== 'append') {
        left.push(s);
        continue;
      }
      const done = await library.writeBack({ key, handle, plan });
      appended.push(done.target);
    } catch {
      // The agent wrote meanwhile, or the folder refused: the user sees it as before.
      left.push(s);
    }
  }
  return { left, appended };
}
