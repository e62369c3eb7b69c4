// Retention (worker/time-partitions.ts) against a producer whose transaction has been open since a
// period that retention now lets go, on a real PostgreSQL: the period stays until the transaction
// ends. Dropped, its message was lost: DETACH ... CONCURRENTLY waits for the transaction, which then
// commits into a partition no query sees any more, and the fan-out's cursor passes it.
import { beforeAll, describe, expect, it } from 'vitest';
import { fanOutOnce } from '../../worker/fan-out';
import { maintainTimePartitions } from '../../worker/time-partitions';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { resetTimePartitions } from '../support/time-partitions';
import { skipFanOut } from '../support/deliveries';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let db: TestDatabase;
let appId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  await resetTimePartitions(db.pool);
  appId = await createApp(db.pool, 'Ix');
  await createEventType(db.pool, appId, 'navigator.folded');
  await createEndpoint(db.pool, appId, 'https://example.com/open-writer');
  await skipFanOut(db.pool);
});

/** Resolves once a DETACH ... CONCURRENTLY waits (for a transaction to end); never, if none does. */
async function detachWaiting(): Promise<void> {
  for (;;) {
    const { rows } = await db.pool.query(
      `SELECT 1 FROM pg_stat_activity
        WHERE query ILIKE '%DETACH PARTITION%CONCURRENTLY%' AND wait_event_type IS NOT NULL AND pid <> pg_backend_pid()`,
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('retention', () => {
  it('keeps a period a producer still writes into, however long its transaction has been open', async () => {
    // A one-minute period five minutes from now, and a clock an hour past its end.
    const at = Math.floor(Date.now() / MINUTE) * MINUTE + 5 * MINUTE;
    const later = at + MINUTE + HOUR + MINUTE;
    // The periods ahead of `later` first, and the periods before the producer's dropped: the run under
    // test has only retention to do, and the producer's period is the first it detaches. (A DETACH ...
    // CONCURRENTLY of any period waits for every transaction that wrote into the table, the producer's
    // too, which would then commit before the producer's period is looked at.)
    await maintainTimePartitions(db.pool, { retentionMs: null, periodMs: MINUTE, now: () => later });
    await maintainTimePartitions(db.pool, { retentionMs: HOUR, periodMs: MINUTE, now: () => at + HOUR });

    const producer = await db.pool.connect();
    let messageId: string;
    try {
      await producer.query('BEGIN');
      const { rows } = await producer.query<{ id: string; partition: string }>(
        `INSERT INTO hookline.messages AS m (id, app_id, event_type, payload)
         VALUES (hookline.new_uuid(hookline.id_at('', $2)::uuid), $1, 'navigator.folded', '{}')
         RETURNING m.id, m.tableoid::regclass::text AS partition`,
        [appId, new Date(at + 1000)],
      );
      messageId = rows[0]!.id;
      const period = rows[0]!.partition.replace('hookline.messages_', '');
      const maintaining = maintainTimePartitions(db.pool, { retentionMs: HOUR, periodMs: MINUTE, now: () => later });
      // Had the maintenance detached the period, its DETACH ... CONCURRENTLY would wait for this
      // transaction: it commits then, as the producer would.
      await Promise.race([maintaining, detachWaiting()]);
      await producer.query('COMMIT');
      const result = await maintaining;
      expect(result?.held).toEqual([period]);
    } finally {
      await producer.query('ROLLBACK').catch(() => {});
      producer.release();
    }
    // Still there, and the fan-out takes it now that it is committed.
    expect(await countRows(db.pool, 'messages', 'id = $1', [messageId])).toBe(1);
    const rows = await fanOutOnce(db.pool, { workerId: 'a-worker', messages: 10, room: 10, leaseSeconds: 60 });
    expect(rows.map((row) => row.message_id)).toEqual([messageId]);
  });

  it('drops a finished period while a worker statement locks every deliveries partition', async () => {
    // The next minute but one after the period above, empty, and a clock an hour past its end.
    const at = Math.floor(Date.now() / MINUTE) * MINUTE + 7 * MINUTE;
    const later = at + MINUTE + HOUR + MINUTE;
    await maintainTimePartitions(db.pool, { retentionMs: null, periodMs: MINUTE, now: () => later });
    await maintainTimePartitions(db.pool, { retentionMs: HOUR, periodMs: MINUTE, now: () => at + HOUR });
    const period = (
      await db.pool.query<{ name: string }>(
        `SELECT partition_name AS name FROM hookline.time_partitions('messages') WHERE lower_at = $1`,
        [new Date(at)],
      )
    ).rows[0]!.name.replace('messages_', '');

    // A claim, flush or renewal filters the deliveries by a column that is not the partition key: it
    // locks every partition while it runs.
    const worker = await db.pool.connect();
    try {
      await worker.query('BEGIN');
      await worker.query(`UPDATE hookline.deliveries SET updated_at = updated_at WHERE claimable_at < '-infinity'`);
      const maintaining = maintainTimePartitions(db.pool, { retentionMs: HOUR, periodMs: MINUTE, now: () => later });
      await Promise.race([maintaining, detachWaiting()]);
      await worker.query('COMMIT');
      expect((await maintaining)?.dropped).toContain(period);
    } finally {
      await worker.query('ROLLBACK').catch(() => {});
      worker.release();
    }
  });
});
