// When the worker recorded its results, read from the deliveries themselves: a delivery counts when
// its result is in the database, not when the receiver saw the request (a worker that sends fast and
// records slowly has its leases expire and sends again; issue 11 measured ~7,000/s sent against
// ~1,500/s recorded). record-results.sql sets updated_at = now(), the start of the flush's
// transaction, so a recorded time is early by at most one flush (tens of ms).
import type pg from 'pg';

export interface RecordedWindow {
  succeeded: number;
  /** Succeeded deliveries of the first flush: sent before the window opens, so not in the rate. */
  succeededInFirstFlush: number;
  /** First and last recorded success, on this machine's clock (ms since the epoch). */
  firstSuccessAt: number;
  lastSuccessAt: number;
  /** Last recorded result of any outcome (succeeded or dead). */
  lastResultAt: number;
}

/**
 * Database clock minus this process's clock, in ms, from the round trip with the least delay of a
 * few. Zero on one machine (both read CLOCK_REALTIME); it matters for a --database-url elsewhere,
 * whose timestamps are compared with the receiver's.
 */
export async function databaseClockOffsetMs(client: pg.ClientBase): Promise<number> {
  let best = { roundTrip: Infinity, offset: 0 };
  for (let sample = 0; sample < 5; sample++) {
    const sentAt = Date.now();
    const { rows } = await client.query<{ now_ms: string }>(
      'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::text AS now_ms',
    );
    const receivedAt = Date.now();
    if (receivedAt - sentAt < best.roundTrip) {
      best = { roundTrip: receivedAt - sentAt, offset: Number(rows[0]!.now_ms) - (sentAt + receivedAt) / 2 };
    }
  }
  return best.offset;
}

export async function readRecordedWindow(client: pg.ClientBase, clockOffsetMs: number): Promise<RecordedWindow> {
  const { rows } = await client.query<{
    succeeded: number;
    in_first: number;
    first_ms: string | null;
    last_ms: string | null;
    last_result_ms: string | null;
  }>(
    `WITH succeeded AS (SELECT updated_at FROM hookline.deliveries WHERE state = 'succeeded')
     SELECT (SELECT count(*) FROM succeeded)::int AS succeeded,
            (SELECT count(*) FROM succeeded WHERE updated_at = (SELECT min(updated_at) FROM succeeded))::int AS in_first,
            (SELECT extract(epoch FROM min(updated_at)) * 1000 FROM succeeded)::text AS first_ms,
            (SELECT extract(epoch FROM max(updated_at)) * 1000 FROM succeeded)::text AS last_ms,
            (SELECT extract(epoch FROM max(updated_at)) * 1000 FROM hookline.deliveries
              WHERE state IN ('succeeded', 'dead'))::text AS last_result_ms`,
  );
  const row = rows[0]!;
  const local = (ms: string | null) => (ms === null ? NaN : Number(ms) - clockOffsetMs);
  return {
    succeeded: row.succeeded,
    succeededInFirstFlush: row.in_first,
    firstSuccessAt: local(row.first_ms),
    lastSuccessAt: local(row.last_ms),
    lastResultAt: local(row.last_result_ms),
  };
}

/**
 * Deliveries recorded per second from the first flush to the last. The first flush's deliveries were
 * sent before the window opened, so they are left out of the count (a 10-flush run would otherwise
 * read 10 % fast).
 */
export function recordedPerSecond(window: RecordedWindow): number {
  const seconds = (window.lastSuccessAt - window.firstSuccessAt) / 1000;
  if (!(seconds > 0)) return NaN;
  return Math.round((window.succeeded - window.succeededInFirstFlush) / seconds);
}
