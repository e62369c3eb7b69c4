// Keeps this worker's leases in the database in step with its LeaseBook (worker/leases.ts):
//   - renews every lease it holds every third of a lease (worker/sql/renew-leases.sql), so leases
//     can be short (a frozen worker's deliveries come back within one, 10 s by default) and still
//     outlast a 30 s attempt;
//   - judges whether a delivery may be sent: only while its lease outlasts the next renewal;
//   - gives deliveries back without spending an attempt (worker/sql/release-deliveries.sql);
//   - gives back strays: deliveries leased to this worker by a claim or fan-out whose answer was lost
//     (worker/sql/release-stray-leases.sql), and, for every worker, first attempts whose worker let
//     their fan-out batch's lease run out (worker/sql/release-expired-batch-leases.sql).
// Every statement is fenced by the lease owner: a worker can only change what it still holds.
import type { Logger } from '../lib/runtime/log';
import type { Pool } from '../lib/database/pg';
import { realClock, sleep, type Clock } from './clock';
import type { LeaseBook } from './leases';
import type { WorkerMetrics } from './metrics';
import { databaseBackoffMs } from './database-backoff';
import { PeriodicChore, type Service } from './service';
import { statements } from './statements';

// Time a delivery's lease must still run, beyond the next renewal, for it to be sent: a renewal round
// trip plus event-loop lag under load.
const LEASE_MARGIN_MS = 500;

export interface Release {
  id: string;
  dueAt: Date;
}

export interface LeaseKeeperOptions {
  pool: Pool;
  workerId: string;
  leaseSeconds: number;
  leases: LeaseBook;
  metrics: WorkerMetrics;
  log: Logger;
  /** Whether a flush is writing the delivery's result right now (flush.ts). */
  beingWritten?: (deliveryId: string) => boolean;
  clock?: Clock;
}

export class LeaseKeeper {
  /** Leases are renewed this often: a third of a lease, so one late renewal still lands in time. */
  readonly renewEveryMs: number;
  private readonly pool: Pool;
  private readonly workerId: string;
  private readonly leaseSeconds: number;
  private readonly leases: LeaseBook;
  private readonly metrics: WorkerMetrics;
  private readonly log: Logger;
  private readonly beingWritten: (deliveryId: string) => boolean;
  private readonly clock: Clock;
  private lastRenewalAt: number;

  constructor(options: LeaseKeeperOptions) {
    if (options.leaseSeconds < 2) {
      // Renewed every third of a lease: under 2 s, one slow renewal round trip would lose it.
      throw new Error(`the lease must be at least 2 seconds, got ${options.leaseSeconds}`);
    }
    this.pool = options.pool;
    this.workerId = options.workerId;
    this.leaseSeconds = options.leaseSeconds;
    this.leases = options.leases;
    this.metrics = options.metrics;
    this.log = options.log;
    this.beingWritten = options.beingWritten ?? (() => false);
    this.clock = options.clock ?? realClock;
    this.lastRenewalAt = this.clock.now();
    this.renewEveryMs = (options.leaseSeconds * 1000) / 3;
  }

  /** Renews every third of a lease, until stopped: a stopping worker's final flush is still renewed. */
  renewal(): PeriodicChore {
    const { log, clock } = this;
    return new PeriodicChore('lease renewal', this.renewEveryMs, (signal) => this.renew(signal), { log, clock });
  }

  /**
   * First attempts whose worker died run under a fan-out batch whose lease ran out: every worker looks
   * for those every 2 s, so they wait at most a lease and 2 s, as claimed ones do. `onReleased` hears
   * of any given back (the loop may take them at once).
   */
  expiredBatchRelease(onReleased: () => void): Service {
    const chore = async () => {
      if ((await this.releaseExpiredBatchLeases()) > 0) onReleased();
    };
    return new PeriodicChore('release of expired fan-out batch leases', 2000, chore, { clock: this.clock });
  }

  /** Whether the delivery's lease outlasts the next renewal (which then extends it) by a margin. */
  safeToSend(deliveryId: string): boolean {
    const now = this.clock.now();
    const nextRenewalInMs = Math.max(0, this.lastRenewalAt + this.renewEveryMs - now);
    return this.leases.runsFor(deliveryId, nextRenewalInMs + LEASE_MARGIN_MS, now);
  }

  /**
   * Renews the leases of everything this worker holds: in flight, and waiting for a connection. A
   * renewal that fails is tried again after the database back-off (100 ms, doubling) until it lands,
   * the next renewal is due or the renewal is stopped. Left to the next tick, three failures in a row
   * let a 10 s lease run out while its worker was alive, and another worker sent those deliveries
   * again: PostgreSQL restarted ten times in ~12 s under two draining workers, 21 to 32 of 25,000 sent
   * twice in about one run of four (test/worker/restart-no-resend.test.ts).
   */
  async renew(signal?: AbortSignal): Promise<void> {
    const startedAt = this.clock.now();
    for (let failures = 0; ; failures++) {
      if (await this.renewOnce()) return;
      const pause = databaseBackoffMs(failures + 1, 1000);
      if (signal?.aborted || this.clock.now() + pause - startedAt >= this.renewEveryMs) return;
      await sleep(this.clock, pause);
    }
  }

  /** One renewal; false when the database could not be reached. */
  private async renewOnce(): Promise<boolean> {
    const sentAt = this.clock.now();
    this.lastRenewalAt = sentAt;
    // Idle: no flush or release to take finished batches' rows with it (worker/leases.ts).
    if (this.leases.size === 0) {
      await this.deleteFinishedBatches();
      return true;
    }
    const holding = this.leases.holding();
    try {
      // First attempts have no row: their fan-out batch's row holds their lease, and renewing it renews them.
      const rowless = new Map<string, string>();
      for (const id of holding.keys()) {
        const batchId = this.leases.unwrittenBatch(id);
        if (batchId !== undefined) rowless.set(id, batchId);
      }
      const { rows } = await statements.renewLeases.run(this.pool, {
        workerId: this.workerId,
        deliveryIds: [...holding.keys()].filter((id) => !rowless.has(id)),
        leaseSeconds: this.leaseSeconds,
        batchIds: this.leases.batches(),
      });
      const renewedIds = new Set(rows.flatMap((row) => (row.id === null ? [] : [row.id])));
      const renewedBatches = new Set(rows.flatMap((row) => (row.batch_id === null ? [] : [row.batch_id])));
      for (const [id, batchId] of rowless) if (renewedBatches.has(batchId)) renewedIds.add(id);
      // Recorded, released, or released and taken again while the renewal ran: not this renewal's to
      // judge (leases.ts says why the last). Still held as sent: extend. Otherwise its lease ended
      // before this renewal (this process froze, or could not renew, for longer than a lease) and it
      // was given back or taken over: never send it; a result in flight is fenced off when flushed.
      const notRenewed = this.leases.renewed(holding, renewedIds, sentAt);
      // Not renewed because the flush under way recorded it first (its row lock made this renewal wait,
      // then the fence no longer matched): not lost, and that flush's outcome says so. Counted as
      // lost, it was logged as "no longer ours" ~once in 6 minutes of a 1,000/s soak.
      const lost = notRenewed.filter((id) => !this.beingWritten(id));
      if (lost.length > 0) {
        this.leases.drop(lost);
        this.log.warn('leases ended before they could be renewed; those deliveries are no longer ours', {
          lost: lost.length,
        });
      }
      return true;
    } catch (error) {
      this.metrics.databaseErrors.inc({ operation: 'renew' });
      this.log.warn('renewing leases failed; trying again', { error, deliveries: holding.size });
      return false;
    }
  }

  /** Gives deliveries back to the queue, each due at its own time, without spending an attempt. */
  async release(deliveries: Release[]): Promise<void> {
    if (deliveries.length === 0) return;
    const ids = deliveries.map((delivery) => delivery.id);
    // What ends is the holding given back: one taken anew before the answer is read stays (leases.ts).
    const holding = this.leases.holding(ids);
    // Fan-out batches whose first attempts' outcomes are all written (worker/leases.ts) go with it.
    const finishedBatches = this.leases.finishedBatches();
    // Held until the release is written (or known to have failed): no stray release of this worker's
    // can take them meanwhile, and what it could not give back its lease returns.
    try {
      await statements.releaseDeliveries.run(this.pool, {
        workerId: this.workerId,
        deliveryIds: ids,
        dueAts: deliveries.map((delivery) => delivery.dueAt),
        settledBatchIds: finishedBatches,
        // First attempts have no row: the release writes it (worker/leases.ts).
        ...this.leases.unwrittenColumns(ids),
      });
      this.leases.batchesDeleted(finishedBatches);
      this.leases.drop(holding);
    } catch (error) {
      // Their leases run out and they are claimed again; at worst a delay of one lease. First attempts'
      // lease is their fan-out batch's row, which therefore stays until it expires (worker/leases.ts).
      this.metrics.databaseErrors.inc({ operation: 'release' });
      this.log.warn('release failed; the lease will return them', { error, deliveries: deliveries.length });
      this.leases.abandon(holding);
    }
  }

  /**
   * Deletes the rows of fan-out batches whose first attempts' outcomes are all written, when no flush
   * or release is coming to take them (idle, stopping). One statement for all of them.
   */
  async deleteFinishedBatches(): Promise<void> {
    const finished = this.leases.finishedBatches();
    if (finished.length === 0) return;
    try {
      await statements.releaseDeliveries.run(this.pool, {
        workerId: this.workerId,
        deliveryIds: [],
        dueAts: [],
        settledBatchIds: finished,
        ...this.leases.unwrittenColumns([]),
      });
      this.leases.batchesDeleted(finished);
    } catch (error) {
      // They expire, and any worker deletes them (release-expired-batch-leases.sql), changing nothing else.
      this.log.warn('deleting finished fan-out batches failed; they expire instead', { error });
    }
  }

  /**
   * After a claim or fan-out failed: it may have committed with its answer lost. Must run before the
   * next claim, never beside one: "leased to me and not in my book" is only true of strays while no
   * claim or fan-out of this worker is in flight. Run beside the loop, it gave back the first attempts
   * of a fan-out that committed meanwhile, while they were being sent (a SIGKILL storm on a loaded
   * machine sent such events twice).
   */
  async releaseStrays(): Promise<number> {
    try {
      const { rowCount } = await statements.releaseStrayLeases.run(this.pool, {
        workerId: this.workerId,
        heldDeliveryIds: this.leases.ids(),
        heldBatchIds: this.leases.batches(),
        leaseSeconds: this.leaseSeconds,
      });
      if (rowCount)
        this.log.warn('gave back deliveries leased by a claim whose answer was lost', { deliveries: rowCount });
      // A lost fan-out's batch rows were just expired: give their deliveries back now.
      return (rowCount ?? 0) + (await this.releaseExpiredBatchLeases());
    } catch (error) {
      // Their leases run out instead.
      this.log.warn('giving back stray leases failed', { error });
      return 0;
    }
  }

  /** Gives back the first attempts of fan-out batches whose worker (any worker) let their lease run out. */
  async releaseExpiredBatchLeases(): Promise<number> {
    try {
      // One batch a statement (release-expired-batch-leases.sql says why); a dead worker leaves a few.
      const released = { batches: 0, deliveries: 0 };
      for (let round = 0; round < 100; round++) {
        const { rows } = await statements.releaseExpiredBatchLeases.run(this.pool, {});
        if (!rows[0] || rows[0].batches === 0) break;
        released.batches += rows[0].batches;
        released.deliveries += rows[0].deliveries;
      }
      if (released.deliveries > 0) {
        this.log.warn('gave back first attempts whose worker let their lease run out', released);
        return released.deliveries;
      }
    } catch (error) {
      this.metrics.databaseErrors.inc({ operation: 'release' });
      this.log.warn('giving back expired batch leases failed; next try in 2 s', { error });
    }
    return 0;
  }
}
