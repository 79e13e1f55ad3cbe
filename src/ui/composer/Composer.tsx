import { useSignal } from '@preact/signals';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { SendResult } from '../../worker/host/api.ts';
import { choices, loadProviders, providers } from '../settings/models-state.ts';
import { createComposer } from './composer-state.ts';
import { Reply } from './Reply.tsx';
import './composer.css';

export interface ComposerProps {
  /** The session written to; null for a new chat. */
  id: string | null;
  /** The entry the reader shows last: a message continues from there (a branch when it is not the file's leaf). */
  leafId: string | null;
  /** After something was written: the session and its new leaf. */
  onWritten(result: { id: string; leafId: string; compacted?: boolean; branched?: boolean }): void;
  /** New chat: a composer for a session that does not exist yet. */
  onNewChat?(): void;
  /** An entry chosen with "Continue from here": the next message starts a branch there instead of after `leafId`. */
  continueFrom?: { entryId: string; line: number } | null;
  /** Forgets the chosen entry (the message goes after `leafId` again). */
  onContinueHere?(): void;
}

const usd = (n: number) => (n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`);

type ComposerState = ReturnType<typeof createComposer>;

/** What the streaming reply has cost so far, and the session. */
function Cost({ c, session }: { c: ComposerState; session: number | null }) {
  const reply = c.reply.value;
  return (
    <p class="composer-cost muted">
      {reply ? `This reply: ${usd(reply.cost)}` : ''}
      {session !== null ? ` Session: ${usd(session)}` : ''}
    </p>
  );
}

/** Below the transcript: Message, Attach (files, camera, pasted pictures), model, Send / Stop, Compact, New chat. */
export function Composer({ id, leafId, onWritten, onNewChat, continueFrom, onContinueHere }: ComposerProps) {
  const c = useMemo(() => createComposer(id), [id]);
  const sessionCost = useSignal<number | null>(null);
  const files = useRef<HTMLInputElement>(null);
  const message = useRef<HTMLTextAreaElement>(null);
  // Choosing an entry to continue from takes the keyboard to the message.
  useEffect(() => {
    if (continueFrom) message.current?.focus();
  }, [continueFrom?.entryId]);
  const camera = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (providers.value === null) void loadProviders().catch(() => undefined);
  }, []);
  const options = choices(providers.value ?? []);
  useEffect(() => {
    if (options.length && !options.some((o) => o.value === c.choice.value)) c.setChoice(options[0].value);
  }, [options.length]);

  const busy = c.busy.value;
  const done = (r: SendResult | null, branched = false) => {
    if (!r) return;
    sessionCost.value = r.totals.cost;
    onWritten({ id: r.id, leafId: r.leafId, branched });
  };
  const send = async (e?: Event) => {
    e?.preventDefault();
    done(await c.send(continueFrom?.entryId ?? leafId));
  };

  return (
    <section class="composer" aria-label="Continue this session">
      <Reply c={c} />
      {/* Announced when a reply ends or fails, not token by token. */}
      <p class="composer-status" role="status" aria-live="polite">
        {busy === 'send' ? 'The model is answering…' : busy === 'compact' ? 'Compacting…' : (c.notice.value ?? '')}
      </p>
      {c.error.value && (
        <p class="composer-error" role="alert">
          {c.error.value}
        </p>
      )}
      {c.retry.value && !busy && (
        <p class="composer-retry">
          <button type="button" onClick={async () => done(await c.resend(), true)}>
            Retry
          </button>
        </p>
      )}
      {options.length === 0 ? (
        <p class="muted">To continue here, add a model key in Settings → Models.</p>
      ) : (
        <form class="composer-form" onSubmit={send}>
          {continueFrom && (
            <p class="composer-from">
              Continues from #{continueFrom.line} (a new branch there).{' '}
              <button type="button" onClick={onContinueHere}>
                Continue from the end instead
              </button>
            </p>
          )}
          <label class="composer-message">
            <span class="rd-sr">Message</span>
            <textarea
              ref={message}
              rows={2}
              placeholder="Message"
              value={c.text.value}
              onInput={(e) => c.setText((e.currentTarget as HTMLTextAreaElement).value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void send(e);
              }}
              onPaste={(e) => {
                const pics = [...(e.clipboardData?.files ?? [])].filter((f) => f.type.startsWith('image/'));
                if (pics.length) {
                  e.preventDefault();
                  c.attach(pics);
                }
              }}
            />
          </label>
          {c.files.value.length > 0 && (
            <ul class="composer-files" aria-label="Attached">
              {c.files.value.map((f, i) => (
                <li key={i}>
                  {f.name}{' '}
                  <button type="button" aria-label={`Remove ${f.name}`} onClick={() => c.detach(i)}>
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div class="composer-row">
            <input
              ref={files}
              type="file"
              multiple
              hidden
              onChange={(e) => c.attach((e.currentTarget as HTMLInputElement).files ?? [])}
              data-testid="attach-files"
            />
            <input
              ref={camera}
              type="file"
              accept="image/*"
              capture="environment"
              hidden
              onChange={(e) => c.attach((e.currentTarget as HTMLInputElement).files ?? [])}
              data-testid="attach-camera"
            />
            <button type="button" onClick={() => files.current?.click()}>
              Attach
            </button>
            <button type="button" onClick={() => camera.current?.click()} aria-label="Take a photo">
              Photo
            </button>
            <label>
              <span class="rd-sr">Model</span>
              <select value={c.choice.value} onChange={(e) => c.setChoice((e.currentTarget as HTMLSelectElement).value)}>
                {options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
            {busy ? (
              <button type="button" onClick={c.stop}>
                Stop
              </button>
            ) : (
              <button type="submit" disabled={!c.text.value.trim() && c.files.value.length === 0}>
                Send
              </button>
            )}
            {id && (
              <button
                type="button"
                disabled={Boolean(busy)}
                onClick={async () => {
                  if (await c.compact(id, leafId)) onWritten({ id, leafId: '', compacted: true });
                }}
              >
                Compact
              </button>
            )}
            {onNewChat && (
              <button type="button" disabled={Boolean(busy)} onClick={onNewChat}>
                New chat
              </button>
            )}
          </div>
          <Cost c={c} session={sessionCost.value} />
        </form>
      )}
    </section>
  );
}
