// What this worker knows about its leases, by its own clock. A lease is taken (claim or fan-out) or
// renewed by a statement that sets `now() + lease` in the database; measured from the moment this
// process sent that statement, `sentAt + lease` is never later than the database's expiry, whatever
// the clocks of the two machines say. So a delivery judged safe here is still leased there.
//
// The invariant it serves: a delivery is only sent while its lease will outlast the next renewal.
// Anything else (a delivery that waited for a connection while the event loop stalled, a renewal
// that failed) goes back to the queue unsent instead of risking a second sender.
//
// A first attempt leased by a fan-out runs under its message's queue row (fan-out-messages.sql): the
// book also knows which message each such delivery belongs to and how many of each message's it still
// holds, so that renewals extend those queue rows and the statement that settles the last of them
// deletes the row.
export class LeaseBook {
  private readonly until = new Map<string, number>();
  private readonly messageOf = new Map<string, string>();
  private readonly heldPerMessage = new Map<string, number>();

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
      this.messageOf.set(id, messageId);
      this.heldPerMessage.set(messageId, (this.heldPerMessage.get(messageId) ?? 0) + 1);
    }
  }

  /** Messages whose queue rows hold the lease of first attempts this worker still holds. */
  messages(): string[] {
    return [...this.heldPerMessage.keys()];
  }

  /**
   * No longer held: recorded, released, or lost to another worker. Returns the messages this settles:
   * those whose last held first attempt was among `ids`, so their queue rows can go.
   */
  drop(ids: Iterable<string>): string[] {
    const settled: string[] = [];
    for (const id of ids) {
      this.until.delete(id);
      const messageId = this.messageOf.get(id);
      if (messageId === undefined) continue;
      this.messageOf.delete(id);
      const left = (this.heldPerMessage.get(messageId) ?? 1) - 1;
      if (left > 0) this.heldPerMessage.set(messageId, left);
      else {
        this.heldPerMessage.delete(messageId);
        settled.push(messageId);
      }
    }
    return settled;
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
