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

export function createComposer(sessionId: string | null) {
  const text = signal(read(draftKey(sessionId)));
  const files = signal<Pending[]>([]);
  const choice = signal(read(CHOICE_KEY));
  /** The reply streaming in (null when none). */
  const reply = signal<{ text: string; thinking: string; cost: number; sent: string } | null>(null);
  const busy = signal<'send' | 'compact' | null>(null);
  const error = signal<string | null>(null);
  const notice = signal<string | null>(null);
  let stop: AbortController | null = null;

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
  async function send(leafId: string | null): Promise<SendResult | null> {
    if (busy.value) return null;
    error.value = null;
    notice.value = null;
    busy.value = 'send';
    stop = new AbortController();
    const sent = text.value;
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
        { id: sessionId, leafId, text: sent, files: files.value, ...picked() },
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
      setText('');
      files.value = [];
      if (result.stopReason === 'aborted') notice.value = 'Stopped: the reply so far is kept. Send again to retry.';
      if (result.stopReason === 'error') error.value = `The reply failed: ${result.errorMessage ?? 'unknown error'}. What arrived is kept.`;
      return result;
    } catch (e) {
      error.value = e instanceof RhoError && e.code === 'aborted' ? 'Stopped before the model answered; your message is kept.' : (e as Error).message;
      return null;
    } finally {
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
