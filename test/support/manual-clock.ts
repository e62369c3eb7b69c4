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

  /** Moves time `ms` forward, firing what falls due on the way. */
  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    for (;;) {
      let next: Scheduled | undefined;
      for (const timer of this.timers) if (timer.at <= until && (!next || timer.at < next.at)) next = timer;
      if (!next) break;
      this.time = next.at;
      if (next.everyMs === null) this.timers.delete(next);
      else next.at += next.everyMs;
      next.fn();
      await turn();
    }
    this.time = until;
    await turn();
  }

  private schedule(ms: number, everyMs: number | null, fn: () => void): Timer {
    if (everyMs === null && ms <= 0) {
      // Due now: it needs no time to pass, so it fires on its own, as a part asking for "right after
      // this" (the flusher's next batch, set for 0 ms) expects.
      let cancelled = false;
      setImmediate(() => cancelled || fn());
      return { cancel: () => (cancelled = true) };
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
