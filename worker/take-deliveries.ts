// Where a worker's work comes from, in this order, each in one statement:
//   1. due deliveries: retries, replays, released ones, and whatever an earlier fan-out could not lease
//      (worker/sql/claim-deliveries.sql: FOR UPDATE SKIP LOCKED on the claim index, oldest due first);
//   2. messages committed since the last fan-out (found by the transaction that wrote them, no queue
//      row), turned into one delivery per subscribed endpoint, the ones that fit already leased to this
//      worker under one batch row (worker/sql/fan-out-messages.sql): a first attempt costs no separate
//      claim.
// Invariant: every delivery returned is leased to this worker and entered in its LeaseBook, timed from
// the moment its statement was sent (worker/leases.ts), before anyone can send it.
import type { Pool } from '../lib/database/pg';
import type { CircuitState } from './circuit-breaker';
import { realClock, type Clock } from './clock';
import type { LeaseBook } from './leases';
import { FanOutRunner } from './fan-out';
import { statements, type FanOutRow } from './statements';

export interface TakenRow {
  id: string;
  app_id: string;
  endpoint_id: string;
  message_id: string;
  attempt_count: number;
  event_type: string;
  created_at: Date;
  payload: string;
  /** The producer's W3C trace context (migration 20261128100000_message_trace_context); mostly NULL. */
  traceparent: string | null;
  tracestate: string | null;
  /** NULL (and the circuit's columns with it): the endpoint is gone, and the delivery with it (claim-deliveries.sql). */
  endpoint_enabled: boolean | null;
  circuit_state: CircuitState;
  circuit_open_until: Date | null;
}

/** A fan-out row: a leased delivery with the statement's counts, or only the counts (id NULL). */

export interface Taken {
  rows: TakenRow[];
  /** There may be more to take right away. */
  full: boolean;
  /** Messages the fan-out took. */
  messagesFannedOut: number;
  /** The fan-out failed after the claim committed: the claimed rows are still here to send. */
  fanOutError?: unknown;
}

export class DeliverySource {
  /** Deliveries each fanned-out message made lately (subscribed endpoints per event), smoothed. */
  private deliveriesPerMessage = 1;
  private readonly fanOut: FanOutRunner;

  constructor(
    private readonly pool: Pool,
    private readonly workerId: string,
    private readonly leaseSeconds: number,
    private readonly leases: LeaseBook,
    /** Times each statement's `sentAt` for the lease book (worker/clock.ts). */
    private readonly clock: Clock = realClock,
    /**
     * Deliveries this worker is still sending, waiting to send, or whose results wait to be written:
     * the claim leaves them alone even when their lease ran out (worker/sql/claim-deliveries.sql says why).
     */
    private readonly stillOurs: () => string[] = () => [],
  ) {
    this.fanOut = new FanOutRunner(clock);
  }

  /** Takes up to `limit` deliveries to send: due ones first, then new messages fanned out. */
  async take(limit: number): Promise<Taken> {
    let sentAt = this.clock.now();
    const claimed = (
      await statements.claimDeliveries.run(this.pool, {
        workerId: this.workerId,
        limit,
        leaseSeconds: this.leaseSeconds,
        stillOursIds: this.stillOurs(),
      })
    ).rows;
    this.leases.taken(
      claimed.map((row) => row.id),
      sentAt,
    );
    const room = limit - claimed.length;
    if (room === 0) return { rows: claimed, full: true, messagesFannedOut: 0 };
    // Sized so the deliveries the messages make roughly fill the room: with 100 endpoints subscribed,
    // 256 messages would write 25,600 rows in one statement for 256 slots.
    const messages = Math.max(1, Math.min(room, Math.floor(room / this.deliveriesPerMessage)));
    let rows: FanOutRow[];
    try {
      ({ rows, sentAt } = await this.fanOut.run(this.pool, {
        workerId: this.workerId,
        messages,
        room,
        leaseSeconds: this.leaseSeconds,
      }));
    } catch (error) {
      // The claim committed and its rows are in the lease book: thrown away here they were renewed for
      // ever and never sent (a PostgreSQL restart between the two statements).
      if (claimed.length === 0) throw error;
      return { rows: claimed, full: false, messagesFannedOut: 0, fanOutError: error };
    }
    const counts = rows[0];
    const messagesTaken = counts?.messages_taken ?? 0;
    if (counts && messagesTaken > 0) {
      const observed = Math.max(1, counts.deliveries_created / messagesTaken);
      this.deliveriesPerMessage = 0.5 * this.deliveriesPerMessage + 0.5 * observed;
    }
    const fanned = rows.filter((row): row is FanOutRow & TakenRow => row.id !== null);
    this.leases.taken(
      fanned.map((row) => row.id),
      sentAt,
    );
    if (counts?.batch_id)
      this.leases.underBatch(
        // As text: the pool reads bigint as a number (lib/database/pg.ts), renewals name it as text.
        String(counts.batch_id),
        fanned.map((row) => ({
          id: row.id,
          appId: row.app_id,
          endpointId: row.endpoint_id,
          messageId: row.message_id,
          eventType: row.event_type,
          createdAt: row.created_at,
        })),
      );
    return {
      rows: claimed.length > 0 ? [...claimed, ...fanned] : fanned,
      // A fan-out that found the cursor busy took nothing: the wait after a claim that was not full (10 ms
      // while busy) lets the other worker's fan-out commit first.
      full: messagesTaken >= messages || (counts?.deliveries_created ?? 0) > fanned.length,
      messagesFannedOut: messagesTaken,
    };
  }
}
