// What this worker knows about its leases, by its own clock. A lease is taken (claim or fan-out) or
// renewed by a statement that sets `now() + lease` in the database; measured from the moment this
// process sent that statement, `sentAt + lease` is never later than the database's expiry, whatever
// the clocks of the two machines say. So a delivery judged safe here is still leased there.
//
// The invariant it serves: a delivery is only sent while its lease will outlast the next renewal.
// Anything else (a delivery that waited for a connection while the event loop stalled, a renewal
// that failed) goes back to the queue unsent instead of risking a second sender.
export class LeaseBook {
  private readonly until = new Map<string, number>();

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

  /** No longer held: recorded, released, or lost to another worker. */
  drop(ids: Iterable<string>): void {
    for (const id of ids) this.until.delete(id);
  }

  /** Whether this worker still holds the delivery (not yet recorded, released or lost). */
  holds(id: string): boolean {
    return this.until.has(id);
  }

  /** Whether the lease runs at least `marginMs` longer. Unknown ids are not ours. */
  runsFor(id: string, marginMs: number, now = Date.now()): boolean {
    const until = this.until.get(id);
    return until !== undefined && until - now >= marginMs;
  }
}
