import { useEffect, useRef } from 'preact/hooks';
import { dismissToast, toasts } from '../models/toasts.ts';

/** Short messages at the bottom, with their action (Undo) when they have one. */
export function Toasts() {
  const host = useRef<HTMLDivElement>(null);
  // The library keeps room below its last row for the messages on screen (--toasts-h), so none covers it.
  useEffect(() => {
    const el = host.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      const height = el.getBoundingClientRect().height;
      root.style.setProperty('--toasts-h', `${Math.ceil(height)}px`);
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--toasts-h');
    };
  }, []);
  return (
    <div class="toasts" role="status" aria-live="polite" ref={host}>
      {toasts.value.map((t) => (
        <div class="toast" key={t.id}>
          <span>{t.text}</span>
          {t.action && (
            <button
              type="button"
              onClick={() => {
                dismissToast(t.id);
                t.action!.run();
              }}
            >
              {t.action.label}
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
