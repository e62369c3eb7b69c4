// Whether this worker is polling for work (and producers may skip their NOTIFY) or asleep on LISTEN
// (and needs one). See migration 20261122170000_notify_only_idle_workers for why: a NOTIFY serializes
// the commits of every producer, so while a worker is busy anyway, producers should not send it.
import type { Logger } from '../lib/runtime/log';
import type { Pool } from '../lib/database/pg';
import { realClock, type Clock } from './clock';
import { statements } from './statements';

/** How long a worker keeps polling after it last found work, before it sleeps on LISTEN again. */
export const BUSY_WINDOW_MS = 1000;
/** The poll interval while busy: the most it adds to a delivery's latency (the target p99 is 50 ms). */
export const BUSY_POLL_MS = 10;
// The row outlives its renewals by this much, so a worker that dies stops suppressing NOTIFY soon.
const ROW_LIFETIME_MS = 2000;
const RENEW_EVERY_MS = 500;

export class PollingPresence {
  private marked = false;
  private nextRenewAt = 0;

  constructor(
    private readonly pool: Pool,
    private readonly workerId: string,
    private readonly log: Logger,
    private readonly clock: Clock = realClock,
  ) {}

  /** Marks this worker as polling, at most every half second. */
  async renew(): Promise<void> {
    const now = this.clock.now();
    if (this.marked && now < this.nextRenewAt) return;
    try {
      await statements.renewPolling.run(this.pool, { workerId: this.workerId, lifetimeMs: ROW_LIFETIME_MS });
      this.marked = true;
      this.nextRenewAt = now + RENEW_EVERY_MS;
    } catch (error) {
      // Without the row producers simply keep notifying: slower commits, nothing lost.
      this.log.debug('could not mark the worker as polling', { error });
    }
  }

  /** Unmarks this worker; true when it was marked (the caller then looks for work once more, since a
   * producer may have skipped its NOTIFY just before the row went away). */
  async end(): Promise<boolean> {
    if (!this.marked) return false;
    this.marked = false;
    try {
      await statements.endPolling.run(this.pool, { workerId: this.workerId });
    } catch (error) {
      // The row expires on its own within two seconds.
      this.log.debug('could not unmark the worker as polling', { error });
    }
    return true;
  }
}
