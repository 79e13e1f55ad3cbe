// The Usage benches' timings in the page: a route change until its screen is drawn.
import type { Page } from '@playwright/test';

/** Milliseconds from a route change to the selector present and the next frame drawn. */
export function routeMs(page: Page, hash: string, selector: string): Promise<number> {
  return page.evaluate(
    async ({ hash, selector }) => {
      const t0 = performance.now();
      location.hash = hash;
      for (;;) {
        await new Promise((r) => requestAnimationFrame(r));
        if (document.querySelector(selector)) break;
      }
      await new Promise((r) => requestAnimationFrame(r));
      return performance.now() - t0;
    },
    { hash, selector },
  );
}

/**
 * Milliseconds from choosing Usage to its first screenful drawn (`ready`, then the next frame) and
 * to the whole screen drawn (`whole`: the sections under the first screenful too, then the next frame).
 */
export function openMs(page: Page, ready: string, whole: string): Promise<{ first: number; whole: number }> {
  return page.evaluate(
    async ({ ready, whole }) => {
      // No named inner function: tsx wraps those in a `__name` helper that the page does not have.
      const t0 = performance.now();
      location.hash = '#/usage';
      const at: number[] = [];
      for (const selector of [ready, whole]) {
        for (;;) {
          await new Promise((r) => requestAnimationFrame(r));
          if (document.querySelector(selector)) break;
        }
        await new Promise((r) => requestAnimationFrame(r));
        at.push(performance.now() - t0);
      }
      return { first: at[0], whole: at[1] };
    },
    { ready, whole },
  );
}
