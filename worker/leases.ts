// What this worker knows about its leases, by its own clock. A lease is taken (claim or fan-out) or
// renewed by a statement that sets `now() + lease` in the database; measured from the moment this
// process sent that statement, `sentAt + lease` is never later than the database's expiry, whatever
// the clocks of the two machines say. So a delivery judged safe here is still leased there.
//
// The invariant it serves: a delivery is only sent while its lease will outlast the next renewal.
// Anything else (a delivery that waited for a connection while the event loop stalled, a renewal
// that failed) goes back to the queue unsent instead of risking a second sender.
//
// A delivery stays in the book from the moment it is taken until what ends it has committed: its
// result's write (worker/flush.ts), its release, or the news that the lease was lost. A result waiting
// for its write is still this worker's to renew and nobody else's to give back: when the book dropped
// it on handing it to the flusher, a PostgreSQL restart sent deliveries twice (the renewal skipped
// them, and the stray release after a failed claim took them for abandoned; issue 26).
//
// A first attempt leased by a fan-out runs under its fan-out's batch row (fan-out-messages.sql), and
// has no row of its own until its outcome is written (migration 20261206090000_first_attempts_written_once):
// the book also knows which batch each such delivery belongs to, what its row is written with (its
// flush or release inserts it), and how many of each batch's it still holds (the batch row is renewed
// while any is held, and renewing it renews them). Once it holds none (every outcome written, or
// the lease lost), the batch is finished, and the next flush or release deletes its row. Not sooner:
// deleted with the last outcome produced, a release written while results of the same batch still
// waited in the flusher left those deliveries under no lease anyone could see expire, 'delivering'
// forever if the worker then died (found in review of the batch leases, migration 20261130090000;
// per message, as before, a release and a buffered result rarely shared a row). A finished
// row left behind (the worker stopped or died first) expires, and any worker deletes it, changing
// nothing else: its deliveries are recorded.
// A delivery given up without its outcome written (its release failed: the database was down) is
// abandoned, not finished: its batch row must outlive it, or nothing is left whose expiry gives it
// back. Such a batch is renewed while this worker holds any other of its deliveries, then left to
// expire; release-expired-batch-leases.sql returns what was abandoned a lease later. Counted as
// finished, the row was deleted by the next flush and 65 first attempts stayed 'delivering' with no
// lease anyone could see expire (test/worker/restart-no-resend.test.ts under CI, PostgreSQL 15).
//
// Each taking of a delivery is a holding of its own, numbered: a delivery given back and taken again
// (a release due now, then this worker's next claim) is held anew. An answer to a statement sent
// before it was taken again speaks of the old holding and must leave the new one alone. Keyed by id
// alone, a renewal sent before the release, run after it and read after the claim found the delivery
// no longer leased and dropped the new holding as lost: sent while out of the book, the delivery was
// then given back mid-send by the stray release after the next failed claim, and another worker sent
// it too (test/worker/lease-keeper.test.ts; found reviewing a CI run of restart-no-resend that sent 30
// of 25,000 twice, not reproduced in 500 restarts here). So renewals and releases name the holdings
// they were sent for (holding()), and touch only those.
import type { UnwrittenColumns } from './statements';

/**
 * A first attempt leased by a fan-out has no row until its outcome is written (record-results.sql and
 * release-deliveries.sql write it, once, with the outcome): what that row is written with.
 */
export interface UnwrittenDelivery {
  id: string;
  appId: string;
  endpointId: string;
  messageId: string;
  eventType: string;
  createdAt: Date;
}

/** For statements with no first attempts among their deliveries. */
export const noneUnwritten = (ids: readonly string[]): UnwrittenColumns => {
  const nulls = ids.map(() => null);
  return {
    batchIds: nulls,
    appIds: nulls,
    endpointIds: nulls,
    messageIds: nulls,
    eventTypes: nulls,
    createdAts: nulls,
  };
};

/** The holdings a statement was sent for: delivery id -> the number of its taking. */
export type Holding = ReadonlyMap<string, number>;

export class LeaseBook {
  /** What this worker holds: when each lease ends by its clock, and which taking it is. */
  private readonly held = new Map<string, { until: number; taking: number }>();
  private takings = 0;
  /**
   * First attempts a fan-out leased, by id: the batch whose row holds their lease, and what their row
   * is written with (they have none until their outcome).
   */
  private readonly underBatches = new Map<string, { batchId: string; row: UnwrittenDelivery }>();
  private readonly heldPerBatch = new Map<string, number>();
  private readonly finished = new Set<string>();
  /** Batches with a delivery given up unwritten: their rows are left to expire, never deleted here. */
  private readonly abandoned = new Set<string>();

  constructor(private readonly leaseMs: number) {}

  get size(): number {
    return this.held.size;
  }

  ids(): string[] {
    return [...this.held.keys()];
  }

  /** Deliveries leased to this worker by a claim or fan-out sent at `sentAt` (the worker's clock, clock.ts). */
  taken(ids: Iterable<string>, sentAt: number): void {
    for (const id of ids) this.held.set(id, { until: sentAt + this.leaseMs, taking: ++this.takings });
  }

  /** Which taking of this delivery is held now; undefined when it is not held. */
  takingOf(id: string): number | undefined {
    return this.held.get(id)?.taking;
  }

  /** The holdings of these deliveries (all held, when none are named) as they are now. */
  holding(ids: Iterable<string> = this.held.keys()): Holding {
    const holding = new Map<string, number>();
    for (const id of ids) {
      const entry = this.held.get(id);
      if (entry) holding.set(id, entry.taking);
    }
    return holding;
  }

  /**
   * A renewal sent at `sentAt` for `holding` answered: the holdings it renewed run a lease from then.
   * Returns those it did not renew (their lease ended, or their outcome was just written); holdings
   * ended or taken anew meanwhile are in neither.
   */
  renewed(holding: Holding, renewedIds: ReadonlySet<string>, sentAt: number): string[] {
    const notRenewed: string[] = [];
    for (const [id, taking] of holding) {
      const entry = this.held.get(id);
      if (entry?.taking !== taking) continue;
      if (renewedIds.has(id)) entry.until = sentAt + this.leaseMs;
      else notRenewed.push(id);
    }
    return notRenewed;
  }

  /** First attempts a fan-out leased to this worker under its batch row `batchId`; they have no row yet. */
  underBatch(batchId: string, deliveries: Iterable<UnwrittenDelivery>): void {
    let held = this.heldPerBatch.get(batchId) ?? 0;
    for (const row of deliveries) {
      this.underBatches.set(row.id, { batchId, row });
      held++;
    }
    if (held > 0) this.heldPerBatch.set(batchId, held);
  }

  /** The fan-out batch whose row holds the lease of this first attempt, if it has no row yet. */
  unwrittenBatch(id: string): string | undefined {
    return this.underBatches.get(id)?.batchId;
  }

  /** What a statement writes the rows of these deliveries with: nulls for those that have rows. */
  unwrittenColumns(ids: readonly string[]): UnwrittenColumns {
    const entries = ids.map((id) => this.underBatches.get(id));
    const rows = entries.map((entry) => entry?.row);
    return {
      batchIds: entries.map((entry) => entry?.batchId ?? null),
      appIds: rows.map((row) => row?.appId ?? null),
      endpointIds: rows.map((row) => row?.endpointId ?? null),
      messageIds: rows.map((row) => row?.messageId ?? null),
      eventTypes: rows.map((row) => row?.eventType ?? null),
      createdAts: rows.map((row) => row?.createdAt ?? null),
    };
  }

  /** Fan-out batches whose rows hold the lease of first attempts this worker still holds. */
  batches(): string[] {
    return [...this.heldPerBatch.keys()];
  }

  /** Fan-out batches none of whose first attempts this worker holds any more: their rows can go. */
  finishedBatches(): string[] {
    return [...this.finished];
  }

  /** The rows of these finished batches were deleted. */
  batchesDeleted(batchIds: Iterable<string>): void {
    for (const id of batchIds) this.finished.delete(id);
  }

  /** No longer held: its outcome is written, its release too, or its lease was lost. */
  drop(ids: Iterable<string> | Holding): void {
    for (const id of this.stillHeld(ids)) this.forget(id);
  }

  /**
   * No longer held, its outcome not written (a release that failed): what brings it back is its lease
   * running out, and for a first attempt that is its fan-out batch's row, which must not be deleted.
   */
  abandon(ids: Iterable<string> | Holding): void {
    for (const id of this.stillHeld(ids)) {
      const batchId = this.underBatches.get(id)?.batchId;
      if (batchId !== undefined) this.abandoned.add(batchId);
      this.forget(id);
    }
  }

  /** The ids still held; of a Holding, only those not taken anew since. */
  private stillHeld(ids: Iterable<string> | Holding): string[] {
    if (!(ids instanceof Map)) return [...(ids as Iterable<string>)].filter((id) => this.held.has(id));
    return [...(ids as Holding)].filter(([id, taking]) => this.held.get(id)?.taking === taking).map(([id]) => id);
  }

  private forget(id: string): void {
    this.held.delete(id);
    const batchId = this.underBatches.get(id)?.batchId;
    if (batchId === undefined) return;
    this.underBatches.delete(id);
    const held = this.heldPerBatch.get(batchId)! - 1;
    if (held > 0) {
      this.heldPerBatch.set(batchId, held);
      return;
    }
    this.heldPerBatch.delete(batchId);
    // Abandoned: no longer renewed, and left to expire (the header says why).
    if (!this.abandoned.delete(batchId)) this.finished.add(batchId);
  }

  /** Whether this worker still holds the delivery (its outcome not yet written, its lease not lost). */
  holds(id: string): boolean {
    return this.held.has(id);
  }

  /** Whether the lease runs at least `marginMs` longer than `now`. Unknown ids are not ours. */
  runsFor(id: string, marginMs: number, now: number): boolean {
    const until = this.held.get(id)?.until;
    return until !== undefined && until - now >= marginMs;
  }
}
