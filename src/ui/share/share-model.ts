// The share dialog's state: what is shared (format, scope, strip options, password), the review
// of what looks private and which hits stay in, and the export that follows.
import { computed, signal } from '@preact/signals';
import type { Review, ShareFormat, StripOptions } from '../../worker/share/api.ts';
import { describeError, isAborted, library } from '../models/calls.ts';
import { deliver, type ExportTarget } from '../models/exports.ts';

/** The session the dialog shares, and the branch on screen when opened from the reader. */
export interface ShareTarget {
  id: string;
  title: string;
  leafId?: string;
  /** The session has no entries: there is no branch to share on its own. */
  empty?: boolean;
}

/** The review as the pane shows it. */
export type ReviewState =
  | { status: 'idle' }
  | { status: 'running'; done: number; total: number }
  | { status: 'done'; review: Review }
  | { status: 'failed'; message: string };

/** The session being shared (null: the dialog is closed). */
export const shareTarget = signal<ShareTarget | null>(null);
export const format = signal<ShareFormat>('jsonl');
export const scope = signal<'session' | 'branch'>('session');
export const markdownMode = signal<'full' | 'focused'>('full');
export const markdownThinking = signal(false);
export const markdownImages = signal<'files' | 'omit'>('omit');
export const strip = signal<StripOptions>({});
export const password = signal('');
/** HTML with a password: an `.age` file instead of a page that asks for it. */
export const htmlAsAge = signal(false);
export const review = signal<ReviewState>({ status: 'idle' });
/** Hits the user left in (by id), and kinds left in whole. */
export const hitsOff = signal<ReadonlySet<string>>(new Set());
export const kindsOff = signal<ReadonlySet<string>>(new Set());
export const formats = signal<ShareFormat[]>(['jsonl', 'markdown']);
export const exporting = signal(false);

/** How many hits will be redacted with the current choice. */
export const redactedCount = computed(() => {
  const r = review.value;
  if (r.status !== 'done') return 0;
  let n = 0;
  for (const [kind, count] of Object.entries(r.review.counts)) {
    if (kindsOff.value.has(kind)) continue;
    n += count - r.review.hits.filter((h) => h.kind === kind && hitsOff.value.has(h.id)).length;
  }
  return n;
});

let reviewing: AbortController | null = null;

/** Opens the share dialog for a session (from the reader: the branch on screen is the default scope). */
export function openShare(target: ShareTarget): void {
  shareTarget.value = target;
  scope.value = target.leafId ? 'branch' : 'session';
  password.value = '';
  hitsOff.value = new Set();
  kindsOff.value = new Set();
  void library.shareFormats({}).then(
    (r) => {
      formats.value = r.formats;
    },
    () => undefined,
  );
  void runReview();
}

/** Closes the dialog and stops a review still running. */
export function closeShare(): void {
  reviewing?.abort();
  reviewing = null;
  shareTarget.value = null;
  review.value = { status: 'idle' };
}

/** Scans the session (or the branch) for what looks private. */
export async function runReview(): Promise<void> {
  const target = shareTarget.value;
  if (!target) return;
  reviewing?.abort();
  const own = new AbortController();
  reviewing = own;
  review.value = { status: 'running', done: 0, total: 0 };
  try {
    const result = await library.reviewShare(
      { id: target.id, scope: scope.value, leafId: scope.value === 'branch' ? target.leafId : undefined },
      {
        signal: own.signal,
        onProgress: (p) => {
          if (reviewing === own) review.value = { status: 'running', done: p.done, total: p.total };
        },
      },
    );
    if (reviewing === own) review.value = { status: 'done', review: result };
  } catch (e) {
    if (reviewing === own && !isAborted(e)) review.value = { status: 'failed', message: describeError(e) };
  }
}

/** Changes the scope and reviews again (hit ids are per scope's lines, so choices start over). */
export function setScope(next: 'session' | 'branch'): void {
  if (scope.value === next) return;
  scope.value = next;
  hitsOff.value = new Set();
  void runReview();
}

/** Turns one hit on (redacted) or off (left in). */
export function toggleHit(id: string): void {
  const next = new Set(hitsOff.value);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  hitsOff.value = next;
}

/** Turns a whole kind on or off. */
export function toggleKind(kind: string): void {
  const next = new Set(kindsOff.value);
  if (next.has(kind)) next.delete(kind);
  else next.add(kind);
  kindsOff.value = next;
}

/** Makes the shared copy and sends it to the chosen target. */
export async function exportShare(target: ExportTarget): Promise<void> {
  const t = shareTarget.value;
  if (!t || exporting.value) return;
  exporting.value = true;
  try {
    await deliver(
      () =>
        library.exportShared({
          id: t.id,
          format: format.value,
          scope: scope.value,
          leafId: scope.value === 'branch' ? t.leafId : undefined,
          choice: { off: [...hitsOff.value], kindsOff: [...kindsOff.value] },
          strip: strip.value,
          markdown: { mode: markdownMode.value, thinking: markdownThinking.value, images: markdownImages.value },
          passphrase: password.value || undefined,
          ageFile: htmlAsAge.value,
        }),
      target,
    );
  } finally {
    exporting.value = false;
  }
}
