// Stage one of a worker (take -> dispatch -> send -> record): the loop that decides when to take work
// and how much, takes it (take-deliveries.ts: due deliveries, then new messages fanned out) and hands
// it to the dispatcher. Its modes are one explicit state (LoopMode): nextMode() decides it from what
// the worker holds before a claim, take() from what the claim brought, and waitOut() waits it out:
//   backpressure  results wait to be recorded: no claim until a flush (it signals the wake). Sending
//                 more would grow the backlog until leases ran out and other workers sent the same
//                 deliveries again; so a slow database slows sending instead.
//   hands-full    too little room for a claim to be worth its round trip: wait for deliveries to finish.
//   take          claim up to `limit`, then, from what came back:
//     more        the claim was full: take again at once;
//     busy        work was found in the last second: poll every 10 ms, and tell producers they need
//                 not NOTIFY (polling-presence.ts);
//     idle        sleep on LISTEN until the next scheduled retry, at most a poll interval;
//     back-off    the database failed: 100 ms doubling to 5 s (database-backoff.ts), never exit; on
//                 the first claim that works, give back what a claim whose answer was lost may have
//                 leased (lease-keeper.ts: releaseStrays) before the next claim.
// Invariant: held + what a claim may take <= concurrency, and at most maxWaiting deliveries wait for an
// endpoint connection (a frozen worker holds back no more than that beside its in-flight requests).
import type { Logger } from '../lib/runtime/log';
import type { Pool } from '../lib/database/pg';
import type { Clock } from './clock';
import { databaseBackoffMs } from './database-backoff';
import type { Dispatcher } from './dispatcher';
import type { ResultFlusher } from './flush';
import type { LeaseKeeper } from './lease-keeper';
import type { WorkerMetrics } from './metrics';
import { BUSY_POLL_MS, BUSY_WINDOW_MS, type PollingPresence } from './polling-presence';
import type { Service } from './service';
import { statements } from './statements';
import type { DeliverySource } from './take-deliveries';
import type { Wake } from './wake';

export interface ClaimLoopOptions {
  concurrency: number;
  batchSize: number;
  pollIntervalMs: number;
  /** No claim while this many results wait to be recorded. */
  maxUnrecorded: number;
  pool: Pool;
  source: DeliverySource;
  dispatcher: Dispatcher;
  flusher: ResultFlusher;
  leaseKeeper: LeaseKeeper;
  presence: PollingPresence;
  wake: Wake;
  metrics: WorkerMetrics;
  stats: { claimed: number };
  log: Logger;
  /** Decides the busy window, the back-off and the idle wait (clock.ts); the wake waits on the same one. */
  clock: Clock;
}

export type LoopMode =
  | { kind: 'backpressure' }
  | { kind: 'hands-full' }
  | { kind: 'take'; limit: number }
  | { kind: 'more' }
  | { kind: 'busy' }
  | { kind: 'idle' }
  | { kind: 'back-off'; delayMs: number };

export class ClaimLoop implements Service {
  readonly name = 'claim loop';
  /** Claim when at least this many slots are free (one claim per freed slot would cost a round trip each). */
  readonly claimThreshold: number;
  /** At most this many taken deliveries wait for an endpoint connection. */
  readonly maxWaiting: number;
  private running = false;
  private done: Promise<void> | null = null;
  private failures = 0;
  private lastFoundWorkAt = 0;
  /** What the loop is doing, or waiting out, now. */
  private mode: LoopMode = { kind: 'idle' };

  constructor(private readonly options: ClaimLoopOptions) {
    const batch = Math.min(options.batchSize, options.concurrency);
    // Wait until three eighths of a batch are free (96 by default; the loop still claims at once when
    // it holds nothing). A fan-out costs PostgreSQL ~2 ms whatever it takes (locks on every time
    // partition in its kept plan, the cursor's step, the batch row): waiting for a quarter, a 50k
    // one-endpoint drain fanned out ~785 times; at three eighths ~535, its PostgreSQL CPU 12 % lower
    // (PostgreSQL 18, three alternated pairs, bench/README.md). Half a batch would save more, but
    // needs more waiting room than the bound below.
    this.claimThreshold = Math.max(1, Math.floor((batch * 3) / 8));
    // At most half a batch (128 by default) waiting for a connection: with one endpoint at 10
    // connections answering in 1 ms that is ~13 ms of work, enough to keep them busy between claims.
    this.maxWaiting = Math.max(Math.floor(batch / 2), 16);
  }

  start(): void {
    if (this.running || this.done) return;
    this.running = true;
    this.done = this.loop();
  }

  /**
   * Stops after the claim in flight (whose rows go straight back), and stops polling: other workers
   * may be asleep, so producers must wake them from now on.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.options.wake.signal();
    await this.done;
    await this.options.presence.end();
  }

  /** A delivery finished: wake the loop if that leaves room for a claim. */
  roomFreed(): void {
    const { concurrency } = this.options;
    const { held, waiting } = this.options.dispatcher;
    if (concurrency - held >= this.claimThreshold && waiting < this.maxWaiting - this.claimThreshold) {
      this.options.wake.signal();
    }
  }

  private nextMode(): LoopMode {
    const { flusher, dispatcher, concurrency, batchSize, maxUnrecorded } = this.options;
    const unrecorded = flusher.unrecorded;
    if (unrecorded >= maxUnrecorded) return { kind: 'backpressure' };
    const limit = Math.min(
      concurrency - dispatcher.held,
      batchSize,
      maxUnrecorded - unrecorded,
      this.maxWaiting - dispatcher.waiting,
    );
    if (limit < this.claimThreshold && dispatcher.held > 0) return { kind: 'hands-full' };
    return { kind: 'take', limit };
  }

  private async loop(): Promise<void> {
    while (this.running) {
      this.mode = this.nextMode();
      if (this.mode.kind === 'take') this.mode = await this.take(this.mode.limit);
      await this.waitOut(this.mode);
    }
  }

  private async waitOut(mode: LoopMode): Promise<void> {
    const { wake, flusher, presence, metrics, pollIntervalMs } = this.options;
    switch (mode.kind) {
      case 'backpressure': {
        metrics.backpressureWaits.inc({});
        const wasListening = wake.listening;
        await wake.wait(pollIntervalMs);
        // The LISTEN connection coming back means the database is: the results go now, not when the
        // flush's back-off (up to 5 s) runs out.
        if (!wasListening && wake.listening) flusher.retryNow();
        return;
      }
      case 'hands-full':
        return wake.wait(pollIntervalMs);
      case 'take':
      case 'more':
        return;
      case 'busy':
        return wake.wait(BUSY_POLL_MS);
      case 'idle':
        // Unmarked just now: a producer may have skipped its NOTIFY just before, so look once more first.
        if (await presence.end()) return;
        return wake.wait(await this.idleDelay());
      case 'back-off':
        return this.backOff(mode.delayMs);
    }
  }

  /** One claim, and the mode its outcome calls for: more, busy, idle or back-off. */
  private async take(limit: number): Promise<LoopMode> {
    const { source, dispatcher, flusher, leaseKeeper, presence, metrics, stats, log } = this.options;
    const started = performance.now();
    let taken: Awaited<ReturnType<DeliverySource['take']>>;
    try {
      taken = await source.take(limit);
    } catch (error) {
      this.failures++;
      metrics.databaseErrors.inc({ operation: 'claim' });
      const delayMs = databaseBackoffMs(this.failures);
      log.error('claim failed; retrying', { error, failures: this.failures, retryInMs: delayMs });
      return { kind: 'back-off', delayMs };
    }
    metrics.claimDuration.observe((performance.now() - started) / 1000);
    if (taken.messagesFannedOut > 0) metrics.fannedOut.inc({}, taken.messagesFannedOut);
    if (taken.fanOutError !== undefined) {
      // The claim's rows are sent; the fan-out is a failure like a claim's, and backs off after them.
      this.failures++;
      metrics.databaseErrors.inc({ operation: 'claim' });
      log.error('claim failed; retrying', { error: taken.fanOutError, failures: this.failures });
      if (this.running) await dispatcher.dispatch(taken.rows);
      else await dispatcher.returnTaken(taken.rows);
      return { kind: 'back-off', delayMs: databaseBackoffMs(this.failures) };
    }
    if (this.failures > 0) {
      log.info('database reachable again; claiming', { after: this.failures });
      this.failures = 0;
      flusher.retryNow();
      // The failed claim or fan-out may have committed with its answer lost: awaited, before the next
      // claim (lease-keeper.ts says why).
      await leaseKeeper.releaseStrays();
    }
    // Busy: tell producers no NOTIFY is needed before sending what was found (a producer's next event
    // then skips its NOTIFY). Idle: sleep on LISTEN, with producers notifying again.
    const now = this.options.clock.now();
    if (taken.rows.length > 0) this.lastFoundWorkAt = now;
    const busy = now - this.lastFoundWorkAt < BUSY_WINDOW_MS;
    if (busy) await presence.renew();
    if (taken.rows.length > 0) {
      stats.claimed += taken.rows.length;
      // Stopped while the claim was in flight: the rows go straight back (and the loop ends).
      if (!this.running) {
        await dispatcher.returnTaken(taken.rows);
        return { kind: 'more' };
      }
      await dispatcher.dispatch(taken.rows);
    }
    if (taken.full) return { kind: 'more' };
    return { kind: busy ? 'busy' : 'idle' };
  }

  /**
   * Sleeps out a claim back-off. Every delivery that finishes meanwhile signals the wake; left to end
   * the wait, those turned a 4 s outage into ~40 failed claims per worker (one per finished delivery,
   * test/worker/postgres-restart.test.ts) instead of 6. The LISTEN connection coming back means the
   * database is up again, and ends the wait early; so does a stop.
   */
  private async backOff(delayMs: number): Promise<void> {
    const { wake, clock } = this.options;
    const until = clock.now() + delayMs;
    const wasListening = wake.listening;
    while (this.running && clock.now() < until) {
      await wake.wait(until - clock.now());
      if (!wasListening && wake.listening) return;
    }
  }

  /** How long to sleep when nothing is due: until the next scheduled retry, at most one poll interval. */
  private async idleDelay(): Promise<number> {
    const { pool, pollIntervalMs, clock } = this.options;
    try {
      // Sent as text, not prepared: a statement without parameters keeps its first (generic) plan
      // whatever plan_cache_mode says, and one made while deliveries was empty could scan it whole on
      // every idle poll once it holds millions of rows.
      const { rows } = await statements.nextDueAt.run(pool, {});
      const nextDue = rows[0]?.next_due_at;
      if (!nextDue) return pollIntervalMs;
      return Math.max(1, Math.min(pollIntervalMs, nextDue.getTime() - clock.now() + 1));
    } catch {
      return pollIntervalMs;
    }
  }
}
