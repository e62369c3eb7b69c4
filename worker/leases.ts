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
// A first attempt leased by a fan-out runs under its fan-out's batch row (fan-out-messages.sql): the
// book also knows which batch each such delivery belongs to, how many of each batch's it still holds
// (the batch row is renewed while any is held) and how many of those have no outcome yet (the
// statement that writes the outcome of the last one deletes the row).
export class LeaseBook {
  private readonly until = new Map<string, number>();
  private readonly batchOf = new Map<string, { batchId: string; settled: boolean }>();
  private readonly perBatch = new Map<string, { held: number; unsettled: number }>();

  constructor(private readonly leaseMs: number) {}

  get size(): number {
    return this.until.size;
  }

  ids(): string[] {
    return [...this.until.keys()];
  }

  /** Leases taken or renewed by a statement sent at `sentAt` (Date.now()). */
  extend(ids: Iterable<string>, sentAt: number): void {
    for (const id of ids) this.until.set(id, sentAt + this.leaseMs);
  }

  /** Deliveries a fan-out leased to this worker under its batch row `batchId`. */
  underBatch(batchId: string, deliveryIds: Iterable<string>): void {
    const counts = this.perBatch.get(batchId) ?? { held: 0, unsettled: 0 };
    for (const id of deliveryIds) {
      this.batchOf.set(id, { batchId, settled: false });
      counts.held++;
      counts.unsettled++;
    }
    if (counts.held > 0) this.perBatch.set(batchId, counts);
  }

  /** Fan-out batches whose rows hold the lease of first attempts this worker still holds. */
  batches(): string[] {
    return [...this.perBatch.keys()];
  }

  /**
   * The delivery has an outcome (a result to record, or a release), still held until it is written.
   * Returns the fan-out batch whose last unsettled first attempt this is: the statement that writes
   * this outcome deletes that batch's row.
   */
  settle(id: string): string | null {
    const entry = this.batchOf.get(id);
    if (!entry || entry.settled) return null;
    entry.settled = true;
    const counts = this.perBatch.get(entry.batchId)!;
    counts.unsettled--;
    return counts.unsettled === 0 ? entry.batchId : null;
  }

  /** No longer held: its outcome is written, or its lease was lost. */
  drop(ids: Iterable<string>): void {
    for (const id of ids) {
      this.until.delete(id);
      const entry = this.batchOf.get(id);
      if (!entry) continue;
      this.batchOf.delete(id);
      const counts = this.perBatch.get(entry.batchId)!;
      if (!entry.settled) counts.unsettled--;
      if (--counts.held === 0) this.perBatch.delete(entry.batchId);
    }
  }

  /** Whether this worker still holds the delivery (its outcome not yet written, its lease not lost). */
  holds(id: string): boolean {
    return this.until.has(id);
  }

  /** Whether the lease runs at least `marginMs` longer. Unknown ids are not ours. */
  runsFor(id: string, marginMs: number, now = Date.now()): boolean {
    const until = this.until.get(id);
    return until !== undefined && until - now >= marginMs;
  }
}
