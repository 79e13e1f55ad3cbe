// Importing .age files: they wait for a password (asked in AgePrompt), then the worker decrypts
// them all before storing anything, so a wrong password stores nothing.
import { signal } from '@preact/signals';
import { RhoError } from '../../worker/client.ts';
import { describeError, library, type PathedFile } from '../models/calls.ts';
import { importJob } from '../models/import-job.ts';
import { refreshLibrary } from '../models/library.ts';

/** Encrypted files waiting for their password (null: no prompt). */
export const agePrompt = signal<{ files: PathedFile[]; error?: string; busy?: boolean } | null>(null);

const isAgeName = (name: string) => /\.age$/i.test(name);

/** Splits incoming files into age files (asked for a password) and the rest (imported as usual). */
export function takeEncrypted<T extends File | PathedFile>(files: T[]): T[] {
  const encrypted: PathedFile[] = [];
  const rest: T[] = [];
  for (const f of files) {
    const file = f instanceof File ? f : f.file;
    const path = f instanceof File ? f.name : f.path || f.file.name;
    if (isAgeName(path)) encrypted.push({ path, file });
    else rest.push(f);
  }
  if (encrypted.length) agePrompt.value = { files: [...(agePrompt.value?.files ?? []), ...encrypted] };
  return rest;
}

/** Decrypts and imports the waiting files; a wrong password keeps the prompt open with the reason. */
export async function unlockAndImport(passphrase: string): Promise<void> {
  const waiting = agePrompt.value;
  if (!waiting || waiting.busy) return;
  agePrompt.value = { files: waiting.files, busy: true };
  try {
    const report = await library.importEncrypted({ files: waiting.files, passphrase });
    agePrompt.value = null;
    importJob.value = { status: 'done', source: 'picker', report };
  } catch (e) {
    const message = e instanceof RhoError && e.code === 'invalid-input' ? e.message : `Could not import: ${describeError(e)}`;
    agePrompt.value = { files: waiting.files, error: message };
  } finally {
    void refreshLibrary();
  }
}

/** Gives up on the waiting files. */
export function dismissAgePrompt(): void {
  agePrompt.value = null;
}
