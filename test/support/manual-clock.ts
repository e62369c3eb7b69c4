// A clock a test moves itself (worker/clock.ts): now() stands still until advance(), which fires each
// timer that falls due on the way, in order and at its own time, and lets what the timer started run
// (a turn of the event loop) before the next. A timer set for 0 ms fires without the clock moving. Only time is replaced: the database and the receivers
// stay real, so a part that does I/O on a tick is awaited by a signal (PeriodicChore.whenIdle()), not
// by a sleep.
import type { Clock, Timer } from '../../worker/clock';

interface Scheduled {
  at: number;
  everyMs: number | null;
  fn: () => void;
}

export class ManualClock implements Clock {
  private time: number;
  private readonly timers = new Set<Scheduled>();
  /** One-shot timers set so far, and who waits for the next. */
  private setCount = 0;
  private onSet: (() => void)[] = [];

  /** Starts at the real time, so what a part writes to the database (due times) stays plausible. */
  constructor(start = Date.now()) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): Timer {
    return this.schedule(ms, null, fn);
  }

  every(ms: number, fn: () => void): Timer {
    return this.schedule(ms, ms, fn);
  }

  /** Timers set and not yet fired or cancelled. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time `ms` forward, firing what falls due on the way; returns how many one-shot timers fired. */
  async advance(ms: number): Promise<number> {
    const until = this.time + ms;
    let fired = 0;
    for (;;) {
      let next: Scheduled | undefined;
      for (const timer of this.timers) if (timer.at <= until && (!next || timer.at < next.at)) next = timer;
      if (!next) break;
      this.time = next.at;
      if (next.everyMs === null) {
        this.timers.delete(next);
        fired++;
      } else next.at += next.everyMs;
      next.fn();
      await turn();
    }
    this.time = until;
    await turn();
    return fired;
  }

  /** One-shot timers set so far: pass it to whenSet() to wait for the next. */
  get timersSet(): number {
    return this.setCount;
  }

  /**
   * Resolves true once a one-shot timer is set after the `since`-th (a part that woke on a timer, did
   * its I/O and is waiting again), or false after `realMs` of real time.
   */
  whenSet(since: number, realMs = 1000): Promise<boolean> {
    if (this.setCount > since) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timeout = setTimeout(() => resolve(false), realMs);
      this.onSet.push(() => {
        clearTimeout(timeout);
        resolve(true);
      });
    });
  }

  private schedule(ms: number, everyMs: number | null, fn: () => void): Timer {
    if (everyMs === null && ms <= 0) {
      // Due now: it needs no time to pass, so it fires on its own, as a part asking for "right after
      // this" (the flusher's next batch, set for 0 ms) expects.
      let cancelled = false;
      setImmediate(() => cancelled || fn());
      return { cancel: () => (cancelled = true) };
    }
    if (everyMs === null) {
      this.setCount++;
      const waiting = this.onSet;
      this.onSet = [];
      for (const wake of waiting) wake();
    }
    const timer: Scheduled = { at: this.time + ms, everyMs: everyMs === null ? null : Math.max(1, everyMs), fn };
    this.timers.add(timer);
    return { cancel: () => this.timers.delete(timer) };
  }
}

/** One turn of the event loop: promise chains a timer started run as far as they can without I/O. */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Moves the clock `stepMs` at a time until `done()` holds, and returns how far it moved. For a part
 * that does I/O between its timers (a claim, then its next poll): after a step that fired a timer, it
 * waits for the part to set its next one before stepping again, so the clock never runs ahead of the
 * part, and a single advance() never passes the time of a timer not yet set. Throws past `maxMs`.
 */
export async function advanceUntil(
  clock: ManualClock,
  done: () => Promise<boolean> | boolean,
  { stepMs = 10, maxMs = 5000, what = 'the condition' } = {},
): Promise<number> {
  const start = clock.now();
  while (!(await done())) {
    if (clock.now() - start >= maxMs) throw new Error(`no ${what} within ${maxMs} ms of the clock`);
    const set = clock.timersSet;
    if ((await clock.advance(stepMs)) > 0) await clock.whenSet(set);
  }
  return clock.now() - start;
}
