// When rounds run. While the page is visible and online: a round soon after a local change
// (`PUSH_MS`), and cheap polls (one listing each when nothing changed) every `MIN_MS` while a change
// is recent (`HOT_POLLS` quiet polls after one: a conversation in progress goes on changing), then
// stretching by half each time nothing changed up to `MAX_MS`, so others' changes show within
// about 3 s and an idle space costs one listing per `MAX_MS`. Hidden
// or offline: no requests at all. Visible again, focus, back online: a round at once. A failure
// the network may fix waits longer each time (up to `ERROR_MAX_MS`); one only the user can fix
// (a key, a CORS rule) stops the polls until the settings change or the page asks again.

export const MIN_MS = 1000;
export const MAX_MS = 2500;
export const PUSH_MS = 200;
export const HOT_POLLS = 5;
export const ERROR_MAX_MS = 30_000;

/** What one round came to. */
export type RoundOutcome = 'changed' | 'quiet' | { retryable: boolean };

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

export class LiveSchedule {
  private visible = false;
  private online = true;
  private enabled = false;
  private timer: unknown = null;
  private due = Number.POSITIVE_INFINITY;
  private running = false;
  private again = false;
  private interval = MIN_MS;
  /** Quiet polls left at MIN_MS before the polls stretch. */
  private hot = 0;
  private errorWait = 0;
  private stopped = false;

  constructor(
    private readonly round: () => Promise<RoundOutcome>,
    private readonly timers: Timers = realTimers,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether rounds may run by themselves now. */
  get active(): boolean {
    return this.enabled && this.visible && this.online && !this.stopped;
  }

  /** The wait before the next poll (for the status and the bench). */
  get nextPollMs(): number {
    return this.errorWait || this.interval;
  }

  /** A space is set up (or not any more). */
  setEnabled(on: boolean): void {
    this.enabled = on;
    this.stopped = false;
    this.errorWait = 0;
    this.update(true);
  }

  /** The page is visible / hidden, online / offline. A change to visible and online runs a round at once. */
  setPage(visible: boolean, online: boolean): void {
    const was = this.active;
    this.visible = visible;
    this.online = online;
    if (this.active && !was) {
      this.stopped = false;
      this.errorWait = 0;
    }
    this.update(this.active && !was);
  }

  /** The user asked (focus, "Sync now"): a round at once, even after a failure that stopped the polls. */
  kick(): void {
    this.stopped = false;
    this.errorWait = 0;
    this.update(true);
  }

  /** Something changed here: push it soon. */
  localChange(): void {
    this.interval = MIN_MS;
    this.hot = HOT_POLLS;
    if (this.active) this.schedule(PUSH_MS);
  }

  private update(runNow: boolean): void {
    if (!this.active) {
      this.cancel();
      return;
    }
    this.schedule(runNow ? 0 : this.nextPollMs);
  }

  private cancel(): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    this.due = Number.POSITIVE_INFINITY;
  }

  private schedule(ms: number): void {
    if (this.running) {
      if (ms <= PUSH_MS) this.again = true;
      return;
    }
    const at = this.now() + ms;
    if (this.timer !== null && this.due <= at) return;
    this.cancel();
    this.due = at;
    this.timer = this.timers.set(() => {
      this.timer = null;
      this.due = Number.POSITIVE_INFINITY;
      void this.run();
    }, ms);
  }

  private async run(): Promise<void> {
    if (!this.active) return;
    this.running = true;
    this.again = false;
    let outcome: RoundOutcome;
    try {
      outcome = await this.round();
    } catch {
      outcome = { retryable: true };
    }
    this.running = false;
    if (outcome === 'changed') {
      this.interval = MIN_MS;
      this.hot = HOT_POLLS;
      this.errorWait = 0;
    } else if (outcome === 'quiet') {
      if (this.hot > 0) this.hot--;
      else this.interval = Math.min(MAX_MS, Math.round(this.interval * 1.5));
      this.errorWait = 0;
    } else if (outcome.retryable) this.errorWait = Math.min(ERROR_MAX_MS, Math.max(MIN_MS, this.errorWait * 2));
    else this.stopped = true;
    if (this.again) this.update(true);
    else this.update(false);
  }
}
