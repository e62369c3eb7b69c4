// The time a worker's parts decide by: when a lease runs out, when a chore is due, how long a back-off
// or a drain lasts. One clock is handed down from the coordinator (delivery-worker.ts) to every part
// that decides by time, so a test can move time itself (test/support/manual-clock.ts) instead of
// sleeping through it. The real clock is Date.now() and Node's timers, unchanged. Durations measured
// only for metrics (performance.now()) are not decisions and stay on the process's own clock; so do
// deadlines on real I/O (a request's timeout, the LISTEN connection's checks and reconnects), which
// must end even while a test holds the clock still.
export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
  /** Calls `fn` once, `ms` from now. */
  after(ms: number, fn: () => void): Timer;
  /** Calls `fn` every `ms`, at a fixed rate (as setInterval: not `ms` after the previous call ended). */
  every(ms: number, fn: () => void): Timer;
}

export const realClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return { cancel: () => clearTimeout(timer) };
  },
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    return { cancel: () => clearInterval(timer) };
  },
};

/** Resolves `ms` from now on the clock. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.after(ms, resolve));
}
