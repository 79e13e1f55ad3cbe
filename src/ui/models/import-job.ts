// The state of the library's import, read by the import panel and set by every way in (drops,
// pickers, paste, shares, the age prompt).
import { signal } from '@preact/signals';
import type { Progress } from '../../worker/protocol.ts';
import type { ImportReport, ImportSource } from './calls.ts';

/** The import panel's state: idle, running (with progress), done (with the report), or failed. */
export type ImportJob =
  | { status: 'idle' }
  | { status: 'running'; source: ImportSource; count: number; progress: Progress | null; cancelling?: boolean }
  | { status: 'done'; source: ImportSource; report: ImportReport }
  | { status: 'failed'; source: ImportSource; message: string }
  | { status: 'cancelled'; source: ImportSource };

/** The current (or last) import. */
export const importJob = signal<ImportJob>({ status: 'idle' });
