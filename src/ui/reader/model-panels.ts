// The reader's side reads (model.ts): the context and stats tabs of the branch on screen, and the
// session's family (its parent and subagent transcripts), each asked of the worker when needed.
import { type Signal, signal } from '@preact/signals';
import type { ContextView, SessionView, StatsView } from '../../core/view/types.ts';
import type { SessionFamily } from '../../worker/subagents/api.ts';
import { worker } from '../worker.ts';

/** The side reads of session `id`, for the branch `view` shows. */
export function createPanels({ id, view }: { id: string; view: Signal<SessionView | null> }) {
  const context = signal<ContextView | null>(null);
  const stats = signal<StatsView | null>(null);
  /** The session's parent and subagent transcripts (null until read, or when the worker has no such call). */
  const family = signal<SessionFamily | null>(null);

  async function loadContext() {
    const current = view.value;
    if (!current || context.value?.leafId === current.leafId) return;
    context.value = await worker.sessionContext({ id, leafId: current.leafId });
  }

  async function loadFamily() {
    try {
      family.value = await worker.sessionFamily({ id });
    } catch {
      // An older worker without subagents: nothing to link.
    }
  }

  async function loadStats() {
    const current = view.value;
    if (!current || stats.value) return;
    stats.value = await worker.sessionStats({ id, leafId: current.leafId });
  }

  /** The branch on screen changed: its context and stats are read again when asked for. */
  function forget() {
    context.value = null;
    stats.value = null;
  }

  return { context, stats, family, loadContext, loadFamily, loadStats, forget };
}
