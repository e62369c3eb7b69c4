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
// A first attempt leased by a fan-out runs under its message's queue row (fan-out-messages.sql): the
// book also knows which message each such delivery belongs to, how many of each message's it still
// holds (their queue rows are renewed while any is held) and how many of those have no result yet
// (the result that settles the last one deletes the row when it is recorded).
export class LeaseBook {
  private readonly until = new Map<string, number>();
  private readonly underMessage = new Map<string, { messageId: string; settled: boolean }>();
  private readonly perMessage = new Map<string, { held: number; unsettled: number }>();

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

  /** Deliveries a fan-out leased to this worker under their message's queue row. */
  underMessages(deliveries: Iterable<{ id: string; messageId: string }>): void {
    for (const { id, messageId } of deliveries) {
      this.underMessage.set(id, { messageId, settled: false });
      const counts = this.perMessage.get(messageId) ?? { held: 0, unsettled: 0 };
      counts.held++;
      counts.unsettled++;
      this.perMessage.set(messageId, counts);
    }
  }

  /** Messages whose queue rows hold the lease of first attempts this worker still holds. */
  messages(): string[] {
    return [...this.perMessage.keys()];
  }

  /**
   * The delivery has an outcome (a result to record, or a release), still held until it is written.
   * Returns the message whose last unsettled first attempt this is: the statement that writes this
   * outcome deletes that message's queue row.
   */
  settle(id: string): string | null {
    const entry = this.underMessage.get(id);
    if (!entry || entry.settled) return null;
    entry.settled = true;
    const counts = this.perMessage.get(entry.messageId)!;
    counts.unsettled--;
    return counts.unsettled === 0 ? entry.messageId : null;
  }

  /** No longer held: its outcome is written, or its lease was lost. */
  drop(ids: Iterable<string>): void {
    for (const id of ids) {
      this.until.delete(id);
      const entry = this.underMessage.get(id);
      if (!entry) continue;
      this.underMessage.delete(id);
      const counts = this.perMessage.get(entry.messageId)!;
      if (!entry.settled) counts.unsettled--;
      if (--counts.held === 0) this.perMessage.delete(entry.messageId);
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
