// Migration 20261130090000_fanout_by_transaction carries a running installation forward: a database
// written by the release before it (messages fanned out long ago, messages still in the fan-out
// queue, a message whose first attempt runs under its leased queue row, and a producer transaction
// still open when the migration starts) is migrated in place, without rewriting messages. Every
// message waiting is fanned out once by the new worker, the leased first attempt goes to the claim
// queue, nothing fanned out before is sent again, and new events take the new path.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../lib/database/migrate';
import { createPool, type Pool } from '../../lib/database/pg';
import { waitingForFanOut, waitUntilSucceeded } from '../support/deliveries';
import { answer, startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { databaseBefore, functionFileBefore, migrateThrough } from '../support/database-before';
import { asPublicId } from '../support/public-ids';
import { startTestWorker, stopTestWorkers } from '../support/worker';

const MIGRATION = '20261130090000_fanout_by_transaction';
let dropDatabase: (() => Promise<void>) | undefined;
let pool: Pool | undefined;
let receiver: Receiver | undefined;

afterAll(async () => {
  await stopTestWorkers();
  await receiver?.close();
  await pool?.end();
  await dropDatabase?.();
});

describe(`migration ${MIGRATION}`, () => {
  it('fans out what the queue held once, gives leased first attempts back, rewrites no message, and waits for producers in flight', async () => {
    const migrated = await databaseBefore(MIGRATION);
    dropDatabase = migrated.drop;
    const url = migrated.url;
    pool = createPool(url, { max: 4 });
    // The release before ran with its time-partition functions applied, and periods ahead of now: as
    // they were while ids were text (until migration 20261208090000_ids_as_uuid).
    await pool.query(functionFileBefore('20261208090000_ids_as_uuid', 'time-partitions.sql'));
    await pool.query('SELECT hookline.ensure_overflow_partitions()');

    receiver = await startReceiver(answer(200, 'ok'));
    await pool.query(`INSERT INTO hookline.apps (id, name) VALUES ('app_old', 'Old')`);
    await pool.query(`INSERT INTO hookline.event_types (app_id, name) VALUES ('app_old', 'order.placed')`);
    const { rows: endpoints } = await pool.query<{ id: string }>(
      `INSERT INTO hookline.endpoints (app_id, url) VALUES ('app_old', $1) RETURNING id`,
      [`${receiver.url}/old`],
    );
    const endpointId = endpoints[0]!.id;
    const send = async (n: number) =>
      (
        await pool!.query<{ id: string }>(
          `SELECT hookline.send('app_old', 'order.placed', jsonb_build_object('n', $1::int)) AS id`,
          [n],
        )
      ).rows[0]!.id;

    // As the release before left them. Fanned out and delivered: its queue row gone, its delivery done.
    const done = await send(1);
    await pool.query('DELETE FROM hookline.fanout_queue WHERE message_id = $1', [done]);
    await pool.query(
      `INSERT INTO hookline.deliveries (app_id, message_id, endpoint_id, event_type, state, attempt_count, last_status_code)
       VALUES ('app_old', $1, $2, 'order.placed', 'succeeded', 1, 200)`,
      [done, endpointId],
    );
    // Still queued: two messages.
    const queued = [await send(2), await send(3)];
    // Fanned out, its first attempt running under its leased queue row (an old worker sending it).
    const leased = await send(4);
    await pool.query(
      `UPDATE hookline.fanout_queue SET lease_owner = 'old-worker', lease_expires_at = now() + interval '1 hour'
        WHERE message_id = $1`,
      [leased],
    );
    const { rows: leasedDelivery } = await pool.query<{ id: string }>(
      `INSERT INTO hookline.deliveries (app_id, message_id, endpoint_id, event_type, state, lease_owner, lease_expires_at)
       VALUES ('app_old', $1, $2, 'order.placed', 'delivering', 'old-worker', now() + interval '1 hour') RETURNING id`,
      [leased, endpointId],
    );

    // The tables' files before: adding the column must not rewrite them.
    const files = async () =>
      (
        await pool!.query<{ relname: string; relfilenode: number }>(
          `SELECT c.relname, c.relfilenode FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'hookline.messages'::regclass ORDER BY c.relname`,
        )
      ).rows;
    const filesBefore = await files();
    expect(filesBefore.length).toBeGreaterThan(1);

    // A producer in flight when the migration starts: its message and queue row are written, not
    // committed. The migration waits for it.
    const producer = await pool.connect();
    let inFlight: string;
    let migrating: Promise<unknown>;
    try {
      await producer.query('BEGIN');
      inFlight = (
        await producer.query<{ id: string }>(`SELECT hookline.send('app_old', 'order.placed', '{"n": 5}') AS id`)
      ).rows[0]!.id;
      // Through this migration only, for the files below; the later ones after.
      migrating = migrateThrough(url, MIGRATION);
      await waitUntil(
        async () =>
          (
            await pool!.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '-- Fan-out without a queue row%'`,
            )
          ).rows[0]!.n === 1,
        { what: 'the migration waiting for the producer in flight' },
      );
      await producer.query('COMMIT');
    } finally {
      producer.release();
    }
    const { applied } = (await migrating) as { applied: string[] };
    expect(applied).toContain(MIGRATION);

    // No message table was rewritten; the queue is gone.
    expect(await files()).toEqual(filesBefore);
    await migrate(url);
    expect((await pool.query(`SELECT to_regclass('hookline.fanout_queue') IS NULL AS gone`)).rows).toEqual([
      { gone: true },
    ]);
    // What was fanned out keeps NULL; what was queued (the producer in flight too) carries the
    // migration's transaction, one for all, and waits for the fan-out.
    const { rows: stamps } = await pool.query<{ id: string; written_by: string | null }>(
      `SELECT id, written_by::text FROM hookline.messages ORDER BY id`,
    );
    const stampOf = new Map(stamps.map((row) => [asPublicId('msg', row.id), row.written_by]));
    expect(stampOf.get(done)).toBeNull();
    expect(stampOf.get(leased)).toBeNull();
    const migrationXid = stampOf.get(queued[0]!);
    expect(migrationXid).not.toBeNull();
    expect([queued[1]!, inFlight!].map((id) => stampOf.get(id))).toEqual([migrationXid, migrationXid]);
    expect(await waitingForFanOut(pool)).toBe(3);
    // The leased first attempt is in the claim queue, due now.
    const { rows: given } = await pool.query(
      `SELECT state, lease_owner, claimable_at IS NOT NULL AS claimable FROM hookline.deliveries
        WHERE id = hookline.uuid_of($1)`,
      [leasedDelivery[0]!.id],
    );
    expect(given).toEqual([{ state: 'pending', lease_owner: null, claimable: true }]);

    // The new worker sends each waiting message once, the leased one once, and a new event; the
    // delivered one is not sent again.
    const fresh = await send(6);
    await startTestWorker(url);
    const expected = [...queued, inFlight!, leased, fresh];
    await waitUntilSucceeded(pool, endpointId, expected, 'every waiting message delivered');
    await stopTestWorkers();
    expect(receiver.requests.map((request) => request.headers['webhook-id']).sort()).toEqual([...expected].sort());
    const { rows: perMessage } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM hookline.deliveries GROUP BY message_id HAVING count(*) <> 1`,
    );
    expect(perMessage).toEqual([]);
    expect(await waitingForFanOut(pool)).toBe(0);
    expect((await pool.query('SELECT count(*)::int AS n FROM hookline.fanout_batches')).rows).toEqual([{ n: 0 }]);
  }, 90_000);
});
