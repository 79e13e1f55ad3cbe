import { useEffect, useState } from 'preact/hooks';
import { Reader } from '../ui/reader/Reader.tsx';
import type { PayloadApi } from './link.ts';
import { formatRoute, parseRoute, type PageRoute } from './route.ts';

/** The id the page's worker knows its one session by. */
export const SESSION_ID = 'shared';

/** The page's state: opening, asking for the password, reading, or failed. */
export type PageState = { name: 'opening' } | { name: 'password'; error?: string; busy?: boolean } | { name: 'reader' } | { name: 'failed'; message: string };

/** Follows the location hash (deep links); the reader's own links come back in the page's form. */
function useRoute(defaultLeaf?: string): [PageRoute, (next: PageRoute) => void] {
  const read = () => {
    const route = parseRoute(location.hash);
    return route.leafId ? route : { ...route, leafId: defaultLeaf };
  };
  const [route, setRoute] = useState<PageRoute>(read);
  useEffect(() => {
    const onHash = () => {
      const next = read();
      // The reader's row links use the app's form (#/s/<id>?entry=…): keep the page's own.
      const own = formatRoute(parseRoute(location.hash));
      if (own && location.hash !== own) history.replaceState(null, '', own);
      setRoute(next);
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const navigate = (next: PageRoute) => {
    const hash = formatRoute(next);
    history.replaceState(null, '', hash || location.pathname + location.search);
    setRoute(next.leafId ? next : { ...next, leafId: defaultLeaf });
  };
  return [route, navigate];
}

function PasswordForm({ state, onSubmit }: { state: Extract<PageState, { name: 'password' }>; onSubmit(passphrase: string): void }) {
  const [value, setValue] = useState('');
  return (
    <main class="sp-lock">
      <form
        class="sp-lock-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (value && !state.busy) onSubmit(value);
        }}
      >
        <h1>This session is encrypted</h1>
        <p class="muted">Enter the password it was shared with. Nothing leaves this page.</p>
        <label>
          Password
          <input type="password" autocomplete="off" autofocus value={value} onInput={(e) => setValue((e.currentTarget as HTMLInputElement).value)} />
        </label>
        <button type="submit" disabled={!value || state.busy}>
          {state.busy ? 'Decrypting…' : 'Open'}
        </button>
        {state.error && (
          <p class="sp-error" role="alert">
            {state.error}
          </p>
        )}
      </form>
    </main>
  );
}

/** The share page: the password (for an encrypted page), then the app's reader on the page's one session. */
export function SharePage({ initial, leafId, unlock }: { initial: PageState; leafId?: string; unlock: PayloadApi['openPayload'] }) {
  const [state, setState] = useState<PageState>(initial);
  const [route, navigate] = useRoute(leafId);
  useEffect(() => setState(initial), [initial]);
  if (state.name === 'opening')
    return (
      <p class="sp-status muted" role="status">
        Opening the session…
      </p>
    );
  if (state.name === 'failed')
    return (
      <p class="sp-status sp-error" role="alert">
        {state.message}
      </p>
    );
  if (state.name === 'password')
    return (
      <PasswordForm
        state={state}
        onSubmit={(passphrase) => {
          setState({ name: 'password', busy: true });
          unlock({ passphrase }).then(
            () => setState({ name: 'reader' }),
            (e: unknown) => setState({ name: 'password', error: e instanceof Error ? e.message : String(e) }),
          );
        }}
      />
    );
  return <Reader id={SESSION_ID} leafId={route.leafId} entryId={route.entryId} onNavigate={navigate} />;
}
