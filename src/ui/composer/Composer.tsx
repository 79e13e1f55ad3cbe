import { useSignal } from '@preact/signals';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { SendResult } from '../../worker/host/api.ts';
import { StreamingMarkdown } from '../markdown/StreamingMarkdown.tsx';
import { choices, loadProviders, providers } from '../settings/models-state.ts';
import { createComposer } from './composer-state.ts';
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

/**
 * The reply as it streams in. A component of its own: the reply changes every frame while it
 * streams, and only what shows it renders again (not the form, its model list and buttons).
 */
function Reply({ c }: { c: ComposerState }) {
  const reply = c.reply.value;
  const box = useRef<HTMLDivElement>(null);
  const full = useFull(box, reply !== null);
  if (!reply) return null;
  return (
    <div class={`composer-reply${full ? ' composer-reply-full' : ''}`} ref={box}>
      {/* One child: the box scrolls from its end (column-reverse), so it follows the reply as it grows. */}
      <div>
        <p class="composer-sent">{reply.sent}</p>
        {reply.thinking && (
          <details class="composer-thinking">
            <summary>Thinking</summary>
            <p>{reply.thinking}</p>
          </details>
        )}
        <StreamingMarkdown text={reply.text || '…'} />
      </div>
    </div>
  );
}

/**
 * Whether the reply's box is full (its content overflows it: the box stands at its largest height).
 * From then on the box's size no longer depends on the reply (`.composer-reply-full`: a fixed
 * height and size containment), so a token laid out in it lays out the box alone, not the composer,
 * the reader around it and the page. Told by a ResizeObserver (after the frame's layout): reading
 * the sizes in a render would lay the page out there.
 */
function useFull(box: { current: HTMLDivElement | null }, shown: boolean): boolean {
  const [full, setFull] = useState(false);
  useLayoutEffect(() => {
    const el = box.current;
    const content = el?.firstElementChild;
    if (!el || !content || typeof ResizeObserver !== 'function') return;
    const sizes = new Map<Element, number>();
    const observer = new ResizeObserver((entries) => {
      for (const e of entries) sizes.set(e.target, e.contentRect.height);
      if ((sizes.get(content) ?? 0) > (sizes.get(el) ?? Infinity)) {
        observer.disconnect();
        setFull(true);
      }
    });
    observer.observe(el);
    observer.observe(content);
    return () => {
      observer.disconnect();
      setFull(false);
    };
  }, [shown]);
  return full;
}

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
