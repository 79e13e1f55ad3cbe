// The page side of the sync-app bench: a large library dropped into the app, and the page's long
// tasks watched while a sync runs (with what the longest animation frames ran, to find their source).
import type { Locator, Page } from '@playwright/test';

/**
 * `sessions` sessions totalling about `mb` MB dropped into an empty library on `page`; resolves once
 * they are added. The files are made in the page as Blobs (a header line per session before a body
 * shared by all, user turns of about 1 KB each), so 500 MB never travels through Playwright.
 */
export async function importLibrary(page: Page, sessions: number, mb = sessions / 50): Promise<void> {
  await page.goto('/#/');
  await page.getByRole('heading', { name: 'Your library is empty' }).waitFor({ timeout: 120_000 });
  await page.evaluate(
    ({ sessions, per }) => {
      const t = '2026-11-29T10:00:00.000Z';
      const lines: string[] = [];
      for (let size = 0, j = 0; size < per; j++) {
        const text = `turn ${j} ${'y'.repeat(1000)}`;
        const message = { role: 'user', content: [{ type: 'text', text }], timestamp: j + 1 };
        const line = JSON.stringify({ type: 'message', id: `m${j}`, parentId: j ? `m${j - 1}` : null, timestamp: t, message });
        lines.push(line);
        size += line.length + 1;
      }
      const body = new Blob([`${lines.join('\n')}\n`]);
      const data = new DataTransfer();
      for (let i = 0; i < sessions; i++) {
        const id = `019e0000-5a5a-7000-8000-${String(i).padStart(12, '0')}`;
        const head = JSON.stringify({ type: 'session', version: 3, id, timestamp: t, cwd: '/home/test/project', title: `Session ${i}` });
        data.items.add(new File([`${head}\n`, body], `s${i}.jsonl`));
      }
      const target = document.querySelector('main') ?? document.body;
      target.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    { sessions, per: Math.floor((mb * 1024 * 1024) / sessions) },
  );
  await page.getByText(`Added: ${sessions}`).waitFor({ timeout: 900_000 });
}

/** Starts counting the page's long tasks (and noting animation frames over 50 ms, with the scripts in them). */
export async function watchTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { longest: number; tasks: number[]; frames_: string[] };
    w.longest = 0;
    w.tasks = [];
    w.frames_ = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        w.longest = Math.max(w.longest, e.duration);
        w.tasks.push(Math.round(e.duration));
      }
    }).observe({ type: 'longtask' });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as {
        duration: number;
        startTime: number;
        renderStart: number;
        styleAndLayoutStart: number;
        scripts: { duration: number; invoker: string; sourceURL: string; sourceFunctionName: string; forcedStyleAndLayoutDuration: number }[];
      }[])
        if (e.duration > 50) {
          const end = e.startTime + e.duration;
          const render = e.renderStart ? Math.round((e.styleAndLayoutStart || end) - e.renderStart) : 0;
          const layout = e.styleAndLayoutStart ? Math.round(end - e.styleAndLayoutStart) : 0;
          const scripts = e.scripts.map(
            (x) =>
              `${x.invoker} ${x.sourceFunctionName}@${x.sourceURL.split('/').pop()} ${Math.round(x.duration)} ms (forced layout ${Math.round(x.forcedStyleAndLayoutDuration)} ms)`,
          );
          w.frames_.push(`${Math.round(e.duration)} ms (rendering ${render} ms, style and layout ${layout} ms): ${scripts.join('; ')}`);
        }
    }).observe({ type: 'long-animation-frame' });
  });
}

/** The longest task, the count of long tasks and their durations since `watchTasks`; logs the long frames. */
export async function tasksSeen(page: Page, log: (m: string) => void): Promise<{ longest: number; tasks: number; durations: number[] }> {
  const w = await page.evaluate(() => {
    const x = window as unknown as { longest: number; tasks: number[]; frames_: string[] };
    return { longest: x.longest, tasks: x.tasks, frames: x.frames_ };
  });
  for (const f of w.frames) log(`  long frame ${f}`);
  return { longest: w.longest, tasks: w.tasks.length, durations: w.tasks };
}

/**
 * A press on `button` to make inside a measure: the button is found before (Playwright's own queries
 * run on the page's main thread, and finding a button by role over a library of cards is itself a
 * long task at 4×), and the press is a mouse event the browser sends at its place (CDP input), not
 * Playwright's click(), whose actionability checks also run on the page's main thread.
 */
export async function pressable(page: Page, button: Locator): Promise<() => Promise<void>> {
  await button.scrollIntoViewIfNeeded();
  const box = await button.boundingBox();
  if (!box) throw new Error(`${button} is not on screen`);
  return () => page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/**
 * Resolves once `fn`, evaluated in `page` (it may be async), gives a truthy value, evaluating it again
 * every `polling` ms; throws after `timeout` ms. Playwright's waitForFunction does not await a
 * predicate's promise (a promise is truthy: it passes at once), so an async condition waits here.
 */
export async function untilTrue<A>(page: Page, fn: (arg: A) => unknown, arg: A, { polling, timeout }: { polling: number; timeout: number }): Promise<void> {
  const end = Date.now() + timeout;
  for (;;) {
    if (await page.evaluate(fn as (arg: unknown) => unknown, arg as unknown)) return;
    if (Date.now() > end) throw new Error(`Still false after ${timeout} ms: ${fn}`);
    await new Promise((resolve) => setTimeout(resolve, polling));
  }
}

/** Shows the library on `page` and waits until it lists `sessions` sessions and no round holds the device's sync lock. */
export async function untilLibraryReceived(page: Page, sessions: number, timeout: number): Promise<void> {
  await page.evaluate(() => {
    location.hash = '#/';
  });
  await untilTrue(
    page,
    async (n) =>
      (document.querySelector('.project-title')?.textContent ?? '').replace(/\D/g, '') === String(n) &&
      !(await navigator.locks.query()).held?.some((l) => l.name?.includes('sync')),
    sessions,
    { polling: 1000, timeout },
  );
}
