// The lifecycle every background part of a worker shares, as River's services do: `start()` once;
// `stop()` waits for what the part is doing and is safe before `start()` and when called twice. The
// coordinator (delivery-worker.ts) starts its services in order and stops them in the order its
// shutdown needs. A chore's ticks come from the clock it is given (clock.ts), so a test moves them.
import type { Logger } from '../lib/runtime/log';
import { realClock, type Clock, type Timer } from './clock';

export interface Service {
  readonly name: string;
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

/**
 * A chore run every `everyMs` at a fixed rate (and once `firstAfterMs` after the start, when given). A
 * tick that finds the previous run still going is skipped: a renewal stuck on a silent connection for
 * its 5 s statement timeout must not pile up behind it. A chore's failure is logged, never thrown: the
 * next tick tries again. A chore that retries within its run (the lease renewal) stops retrying when
 * its signal is aborted: stop() aborts it, then waits for the run to end.
 */
export class PeriodicChore implements Service {
  private interval: Timer | null = null;
  private first: Timer | null = null;
  private running: Promise<void> | null = null;
  /** Aborted by stop(): no more ticks, and a chore retrying within its run gives up. */
  private readonly stopping = new AbortController();

  constructor(
    readonly name: string,
    private readonly everyMs: number,
    private readonly chore: (signal: AbortSignal) => Promise<unknown>,
    private readonly options: { firstAfterMs?: number; log?: Logger; clock?: Clock } = {},
  ) {}

  start(): void {
    if (this.stopping.signal.aborted || this.interval) return;
    const clock = this.options.clock ?? realClock;
    this.interval = clock.every(this.everyMs, () => this.tick());
    if (this.options.firstAfterMs !== undefined) this.first = clock.after(this.options.firstAfterMs, () => this.tick());
  }

  private tick(): void {
    if (this.running || this.stopping.signal.aborted) return;
    this.running = this.chore(this.stopping.signal)
      .then(
        () => undefined,
        (error: unknown) => this.options.log?.warn(`${this.name} failed; next try in ${this.everyMs} ms`, { error }),
      )
      .finally(() => {
        this.running = null;
      });
  }

  /** Resolves when the run under way, if any, has ended: what a test waits on instead of sleeping. */
  async whenIdle(): Promise<void> {
    await this.running;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.interval?.cancel();
    this.first?.cancel();
    await this.running;
  }
}
