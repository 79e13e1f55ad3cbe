// The Usage screen's chunk and first report, made ready while the app is idle after boot, so its
// first open only draws (the target: the screen for 2,000 sessions in ≤ 200 ms, the first open
// after a reload included, on a phone-class CPU).
import { effect, signal, useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { runWhenIdle, whenIdle } from './idle.ts';
import { loaded, sessions } from './models/library.ts';

type UsageModule = typeof import('./usage/UsageScreen.tsx');

// The Usage screen loads in its own chunk: the library's first paint does not wait for it.
let usageModule: UsageModule | null = null;
let usageLoading: Promise<UsageModule> | null = null;
let preparing: Promise<void> | null = null;

/** Loads the Usage screen's chunk once (a failed load may be tried again). */
export function loadUsage(): Promise<UsageModule> {
  usageLoading ??= import('./usage/UsageScreen.tsx').then(
    (m) => (usageModule = m),
    (e) => {
      usageLoading = null;
      throw e;
    },
  );
  return usageLoading;
}

/** Resolves once the library's first list has arrived. */
function whenLoaded(): Promise<void> {
  return new Promise((resolve) => {
    const stop = effect(() => {
      if (!loaded.value) return;
      resolve();
      queueMicrotask(() => stop());
    });
  });
}

/**
 * At idle after boot: the chunk, then, once the library's records are there, the default report
 * (scope, range, heatmap) computed from them, one step an idle period. The screen's first open
 * then reads what is kept (usage/model.ts) and only draws. Marks `<html data-usage-prepared>` with
 * the number of records it was computed for. Runs once; a failed chunk load leaves the screen to
 * load it when opened.
 */
export function prepareUsage(): Promise<void> {
  preparing ??= (async () => {
    await whenIdle();
    const mod = await loadUsage();
    await whenLoaded();
    await runWhenIdle(mod.prepareSteps());
    document.documentElement.dataset.usagePrepared = String(sessions.peek().length);
  })().catch(() => undefined);
  return preparing;
}

/**
 * Whether the Usage screen is drawn, hidden, ahead of its first open (App.tsx mounts its host
 * when this is set): the open then only shows what is there. Set at idle once the report is
 * ready (`prerenderUsage`), cleared when the reader replaces the screens (`dropUsagePrerender`).
 */
export const usagePrerender = signal(false);
let prerenderAsked = 0;

/**
 * After the idle preparation, in an idle period of its own: draws the Usage screen hidden, so its
 * first open only attaches what is drawn (the DOM of a year's heatmap and the tables is the larger
 * part of a cold open on a slow phone). Again after each visit to the reader, which unmounts it.
 */
export async function prerenderUsage(): Promise<void> {
  const asked = ++prerenderAsked;
  await prepareUsage();
  await whenIdle();
  if (asked === prerenderAsked && usageModule) usagePrerender.value = true;
}

/** The reader replaces the screens (and so the drawn Usage screen): a later prerender draws it again. */
export function dropUsagePrerender(): void {
  prerenderAsked++;
  usagePrerender.value = false;
}

/**
 * Mounts the Usage screen (`#/usage`) once its chunk is loaded (at once when it was loaded at
 * idle); `hidden`: kept under the library; `prerender`: drawn while hidden if it never was.
 */
export function UsageHost({ day, hidden, prerender = false }: { day?: string; hidden: boolean; prerender?: boolean }) {
  const mod = useSignal(usageModule);
  const failed = useSignal(false);
  useEffect(() => {
    if (!mod.value)
      loadUsage().then(
        (m) => {
          mod.value = m;
        },
        () => {
          failed.value = true;
        },
      );
  }, []);
  if (failed.value) return <p role="alert">The Usage screen could not be loaded.</p>;
  if (!mod.value) return <main class="library" aria-busy="true" />;
  return <mod.value.UsageScreen day={day} hidden={hidden} prerender={prerender} />;
}
