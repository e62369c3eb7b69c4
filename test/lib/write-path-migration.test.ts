// Migration 20261123170000_write_path_v2 carries a running installation forward: a database migrated
// to the step before it, with events in every state the old write path left (deliveries written by
// the old hookline.send, one in flight under a lease, finished ones with attempts, a finished row
// still naming a lease owner), is migrated in place; nothing is lost, what was waiting is delivered
// by the new worker, and new events take the new path.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../lib/database/migrate';
import { createPool, type Pool } from '../../lib/database/pg';
import { fanOutQueued, waitingForFanOut, waitUntilSucceeded } from '../support/deliveries';
import { answer, startReceiver, type Receiver } from '../support/receiver';
import { databaseBefore } from '../support/database-before';
import { startTestWorker, stopTestWorkers } from '../support/worker';

const MIGRATION = '20261123170000_write_path_v2';
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
  it('keeps every message, delivery and attempt, repairs stray leases, and the new worker delivers what was waiting', async () => {
    const migrated = await databaseBefore(MIGRATION);
    dropDatabase = migrated.drop;
    const url = migrated.url;
    pool = createPool(url, { max: 3 });

    receiver = await startReceiver(answer(200, 'ok'));
    await pool.query(`INSERT INTO hookline.apps (id, name) VALUES ('app_old', 'Old')`);
    await pool.query(`INSERT INTO hookline.event_types (app_id, name) VALUES ('app_old', 'order.placed')`);
    const { rows: endpoints } = await pool.query<{ id: string }>(
      `INSERT INTO hookline.endpoints (app_id, url) VALUES ('app_old', $1) RETURNING id`,
      [`${receiver.url}/old`],
    );
    const endpointId = endpoints[0]!.id;
    // The old hookline.send wrote each message's deliveries in the caller's transaction.
    const { rows: sent } = await pool.query<{ id: string }>(
      `SELECT hookline.send('app_old', 'order.placed', jsonb_build_object('n', n)) AS id FROM generate_series(1, 4) AS n`,
    );
    const [waiting, inFlight, done, dead] = sent.map((row) => row.id) as [string, string, string, string];
    await pool.query(
      `UPDATE hookline.deliveries SET state = 'delivering', lease_owner = 'old-worker',
              lease_expires_at = now() - interval '1 second', next_attempt_at = now() - interval '1 second'
        WHERE message_id = $1`,
      [inFlight],
    );
    await pool.query(
      `UPDATE hookline.deliveries SET state = 'succeeded', attempt_count = 1, last_status_code = 200 WHERE message_id = $1`,
      [done],
    );
    // A finished row that still names a lease owner: the new constraint must not refuse the migration.
    await pool.query(
      `UPDATE hookline.deliveries SET state = 'dead', attempt_count = 8, lease_owner = 'old-worker' WHERE message_id = $1`,
      [dead],
    );
    await pool.query(
      `INSERT INTO hookline.attempts (app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id, started_at,
                                      duration_ms, status_code)
       SELECT app_id, id, message_id, endpoint_id, 1, 'old-worker', now(), 3, 200 FROM hookline.deliveries
        WHERE message_id = $1`,
      [done],
    );
    const count = async (table: string) =>
      (await pool!.query<{ n: number }>(`SELECT count(*)::int AS n FROM hookline.${table}`)).rows[0]!.n;
    const before = {
      messages: await count('messages'),
      deliveries: await count('deliveries'),
      attempts: await count('attempts'),
    };
    expect(before).toEqual({ messages: 4, deliveries: 4, attempts: 1 });

    const { applied } = await migrate(url);
    expect(applied).toContain(MIGRATION);
    expect({
      messages: await count('messages'),
      deliveries: await count('deliveries'),
      attempts: await count('attempts'),
    }).toEqual(before);
    const { rows: deadRow } = await pool.query(
      'SELECT state, lease_owner FROM hookline.deliveries WHERE message_id = hookline.uuid_of($1)',
      [dead],
    );
    expect(deadRow).toEqual([{ state: 'dead', lease_owner: null }]);
    const { rows: constraint } = await pool.query<{ convalidated: boolean }>(
      `SELECT convalidated FROM pg_constraint WHERE conname = 'deliveries_lease_check' AND conrelid = 'hookline.deliveries'::regclass`,
    );
    expect(constraint).toEqual([{ convalidated: true }]);
    // Nothing waits for a fan-out that the old path already did.
    expect(await waitingForFanOut(pool)).toBe(0);

    // The new worker sends what was waiting and what an old worker left in flight, and a new event
    // by the new path; the finished ones are left alone.
    await startTestWorker(url);
    const fresh = (
      await pool.query<{ id: string }>(`SELECT hookline.send('app_old', 'order.placed', '{"n": 5}') AS id`)
    ).rows[0]!.id;
    await waitUntilSucceeded(
      pool,
      endpointId,
      [waiting, inFlight, done, fresh],
      'the waiting, the in-flight and the new event delivered',
    );
    const delivered = receiver.requests.map((request) => request.headers['webhook-id']).sort();
    expect(delivered).toEqual([waiting, inFlight, fresh].sort());
    expect(await fanOutQueued(pool)).toBe(0);
  }, 60_000);
});
