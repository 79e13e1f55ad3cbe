// The composer's state for one session: the draft (kept on this device until it is sent, so an
// error or going offline loses nothing), files to attach, the model, and the reply as it streams.
import { signal } from '@preact/signals';
import type { SendResult } from '../../worker/host/api.ts';
import { RhoError } from '../../worker/client.ts';
import { worker } from '../worker.ts';

const CHOICE_KEY = 'rho-model-choice';
const draftKey = (id: string | null) => `rho-draft:${id ?? 'new'}`;

const read = (key: string) => {
  try {
    return localStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
};
const write = (key: string, value: string) => {
  try {
    if (value) localStorage.setItem(key, value);
    else localStorage.removeItem(key);
  } catch {
    // Private mode without storage: the draft lives as long as the page.
  }
};

/** A file waiting to go with the next message. */
export interface Pending {
  name: string;
  type: string;
  blob: Blob;
}

/** A message to send again: the session, the entry it was written after, its text and files. */
interface Retry {
  id: string;
  from: string | null;
  text: string;
  files: Pending[];
}

/**
 * How a new chat's first turn ended, for the composer of the session it created: the reader opens
 * that session (a new composer), and a stopped or failed first reply must still offer Retry there.
 */
const handedOver = new Map<string, { retry: Retry | null; notice: string | null; error: string | null }>();

export function createComposer(sessionId: string | null) {
  // Kept until that session's composer sends again (the reader may mount it more than once while it opens).
  const carried = sessionId === null ? undefined : handedOver.get(sessionId);
  const text = signal(read(draftKey(sessionId)));
  const files = signal<Pending[]>([]);
  const choice = signal(read(CHOICE_KEY));
  /** The reply streaming in (null when none). */
  const reply = signal<{ text: string; thinking: string; cost: number; sent: string } | null>(null);
  const busy = signal<'send' | 'compact' | null>(null);
  const error = signal<string | null>(carried?.error ?? null);
  const notice = signal<string | null>(carried?.notice ?? null);
  /** The last message, when its reply was stopped or failed: Retry sends it again from where it was written. */
  const retry = signal<Retry | null>(carried?.retry ?? null);
  let stop: AbortController | null = null;
  let backgrounded = false;

  const setText = (v: string) => {
    text.value = v;
    write(draftKey(sessionId), v);
  };
  const setChoice = (v: string) => {
    choice.value = v;
    write(CHOICE_KEY, v);
  };
  const picked = () => {
    const [provider, ...rest] = choice.value.split('|');
    return { provider, model: rest.join('|') };
  };

  /** Sends the draft with its files from `leafId` (the file's leaf when absent); resolves with what was written, or null. */
  function send(leafId: string | null): Promise<SendResult | null> {
    return sendTurn(sessionId, leafId, text.value, files.value, true);
  }

  /** Sends the stopped or failed message again, from where it was written (a new branch beside the first try). */
  function resend(): Promise<SendResult | null> {
    const r = retry.value;
    return r ? sendTurn(r.id, r.from, r.text, r.files, false) : Promise.resolve(null);
  }

  async function sendTurn(id: string | null, leafId: string | null, sent: string, sentFiles: Pending[], draft: boolean): Promise<SendResult | null> {
    if (busy.value) return null;
    error.value = null;
    notice.value = null;
    busy.value = 'send';
    if (id !== null) handedOver.delete(id);
    stop = new AbortController();
    backgrounded = false;
    // A phone ends a request when the app goes to the background: stopped here first, what arrived is kept as an aborted reply.
    const hidden = () => {
      if (document.visibilityState === 'hidden' && navigator.maxTouchPoints > 0) leave();
    };
    const leave = () => {
      backgrounded = true;
      stop?.abort();
    };
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', leave);
    reply.value = { text: '', thinking: '', cost: 0, sent };
    // Pieces are gathered and shown at most once a frame.
    let pending = { text: '', thinking: '', cost: 0 };
    let frame = 0;
    const flush = () => {
      frame = 0;
      const r = reply.value;
      if (!r) return;
      reply.value = { ...r, text: r.text + pending.text, thinking: r.thinking + pending.thinking, cost: pending.cost };
      pending = { text: '', thinking: '', cost: pending.cost };
    };
    try {
      const result = await worker.sendMessage(
        { id, leafId, text: sent, files: sentFiles, ...picked() },
        {
          signal: stop.signal,
          onProgress: (p) => {
            if (!p.stream) return;
            pending[p.stream.kind] += p.stream.delta;
            pending.cost = p.stream.cost;
            frame ||= requestAnimationFrame(flush);
          },
        },
      );
      if (draft) {
        setText('');
        files.value = [];
      }
      const failed = result.stopReason === 'aborted' || result.stopReason === 'error';
      retry.value = failed ? { id: result.id, from: result.retryFrom, text: sent, files: sentFiles } : null;
      if (result.stopReason === 'aborted')
        notice.value = backgrounded ? 'The app went to the background: the reply so far is kept. Retry to ask again.' : 'Stopped: the reply so far is kept.';
      if (result.stopReason === 'error') error.value = `The reply failed: ${result.errorMessage ?? 'unknown error'}. What arrived is kept.`;
      if (id === null) handedOver.set(result.id, { retry: retry.value, notice: notice.value, error: error.value });
      return result;
    } catch (e) {
      // Nothing was written: a draft stays in the field (and on this device), a retry stays offered.
      error.value = e instanceof RhoError && e.code === 'aborted' ? 'Stopped before the model answered; your message is kept.' : (e as Error).message;
      return null;
    } finally {
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', leave);
      if (frame) cancelAnimationFrame(frame);
      reply.value = null;
      busy.value = null;
      stop = null;
    }
  }

  async function compact(id: string, leafId: string | null): Promise<boolean> {
    if (busy.value) return false;
    error.value = null;
    notice.value = null;
    busy.value = 'compact';
    stop = new AbortController();
    try {
      const r = await worker.compactSession({ id, leafId, ...picked() }, { signal: stop.signal });
      notice.value = `Compacted: about ${r.tokensBefore.toLocaleString()} tokens → ${r.tokensAfter.toLocaleString()}.`;
      return true;
    } catch (e) {
      error.value = (e as Error).message;
      return false;
    } finally {
      busy.value = null;
      stop = null;
    }
  }

  return {
    text,
    files,
    choice,
    reply,
    busy,
    error,
    notice,
    retry,
    resend,
    setText,
    setChoice,
    send,
    compact,
    stop: () => stop?.abort(),
    attach: (list: Iterable<File>) => {
      files.value = [...files.value, ...[...list].map((f) => ({ name: f.name || 'pasted-image.png', type: f.type, blob: f }))];
    },
    detach: (i: number) => {
      files.value = files.value.filter((_, j) => j !== i);
    },
  };
}

export type Composer = ReturnType<typeof createComposer>;
