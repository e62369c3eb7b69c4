// Migration 20261126130000_time_partitions carries a running installation forward: a database written
// by the release before it (messages with and without idempotency keys, one still queued for fan-out,
// a delivery waiting for its retry, a finished one with its attempt) is migrated in place. Nothing is
// copied and nothing is lost: the old tables become the legacy partitions, a repeated idempotency key
// still answers its first message, the new worker delivers what was waiting, and retention later
// drops the legacy partitions whole once nothing in them is unfinished.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../lib/database/migrate';
import { createPool, type Pool } from '../../lib/database/pg';
import { maintainTimePartitions } from '../../worker/time-partitions';
import { waitUntilSucceeded } from '../support/deliveries';
import { answer, startReceiver, type Receiver } from '../support/receiver';
import { databaseBefore } from '../support/database-before';
import { startTestWorker, stopTestWorkers } from '../support/worker';

const MIGRATION = '20261126130000_time_partitions';
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
  it('keeps every row in place, keeps idempotency keys answering, and the new worker delivers what was waiting', async () => {
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
    // As the release before left them: a keyed message and an unkeyed one, fanned out by hand into a
    // delivery waiting for its retry (due now) and a finished one with its attempt; one more message
    // still in the fan-out queue.
    const send = async (payload: string, key: string | null) =>
      (
        await pool!.query<{ id: string }>(`SELECT hookline.send('app_old', 'order.placed', $1::jsonb, $2) AS id`, [
          payload,
          key,
        ])
      ).rows[0]!.id;
    const keyed = await send('{"n": 1}', 'order-1');
    const finished = await send('{"n": 2}', null);
    const queued = await send('{"n": 3}', null);
    await pool.query('DELETE FROM hookline.fanout_queue WHERE message_id <> $1', [queued]);
    await pool.query(
      `INSERT INTO hookline.deliveries (app_id, message_id, endpoint_id, event_type, attempt_count, claimable_at, last_error_class)
       VALUES ('app_old', $1, $2, 'order.placed', 1, now(), 'http_5xx')`,
      [keyed, endpointId],
    );
    const { rows: finishedRows } = await pool.query<{ id: string }>(
      `INSERT INTO hookline.deliveries (app_id, message_id, endpoint_id, event_type, state, attempt_count, last_status_code)
       VALUES ('app_old', $1, $2, 'order.placed', 'succeeded', 1, 200) RETURNING id`,
      [finished, endpointId],
    );
    await pool.query(
      `INSERT INTO hookline.attempts (app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id, started_at,
                                      duration_ms, status_code)
       VALUES ('app_old', $1, $2, $3, 1, 'old-worker', now(), 3, 200)`,
      [finishedRows[0]!.id, finished, endpointId],
    );

    const { applied } = await migrate(url);
    expect(applied).toContain(MIGRATION);

    // The old tables are the legacy partitions, and an overflow follows them.
    const partitions: { partition: string; rows: number }[] = [];
    for (const { partition_name: partition } of (
      await pool.query<{ partition_name: string }>(`SELECT partition_name FROM hookline.time_partitions('deliveries')`)
    ).rows) {
      const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM hookline.${partition}`);
      partitions.push({ partition, rows: rows[0]!.n });
    }
    // The old rows are all in the legacy partition; after it, the first one-minute periods and the
    // overflow, empty.
    expect(partitions[0]).toEqual({ partition: expect.stringMatching(/^deliveries_before_/), rows: 2 });
    expect(partitions.at(-1)).toEqual({ partition: 'deliveries_overflow', rows: 0 });
    expect(partitions.slice(1).every((p) => p.rows === 0)).toBe(true);
    const { rows: kept } = await pool.query(
      `SELECT (SELECT count(*) FROM hookline.messages)::int AS messages,
              (SELECT count(*) FROM hookline.deliveries)::int AS deliveries,
              (SELECT count(*) FROM hookline.attempts)::int AS attempts`,
    );
    expect(kept).toEqual([{ messages: 3, deliveries: 2, attempts: 1 }]);

    // The key moved to hookline.idempotency_keys: a retry answers the first message, a new key is new.
    expect(await send('{"n": 1}', 'order-1')).toBe(keyed);
    const newer = await send('{"n": 4}', 'order-2');
    expect(newer).not.toBe(keyed);
    expect(await send('{"n": 4}', 'order-2')).toBe(newer);

    // The new worker sends the waiting delivery, the queued message and the new one.
    await startTestWorker(url);
    await waitUntilSucceeded(
      pool,
      endpointId,
      [keyed, finished, queued, newer],
      'the waiting, the queued and the new event delivered',
    );
    await stopTestWorkers();
    expect(receiver.requests.map((request) => request.headers['webhook-id']).sort()).toEqual(
      [keyed, queued, newer].sort(),
    );

    // A week on, with a retention of a day, the legacy partitions go whole, with their keys.
    const result = await maintainTimePartitions(pool, {
      retentionMs: 86_400_000,
      now: () => Date.now() + 7 * 86_400_000,
    });
    expect(result?.dropped[0]).toMatch(/^before_/);
    expect(
      (await pool.query(`SELECT count(*)::int AS n FROM hookline.messages WHERE id = hookline.uuid_of($1)`, [keyed]))
        .rows,
    ).toEqual([{ n: 0 }]);
    expect(
      (
        await pool.query(
          `SELECT count(*)::int AS n FROM hookline.idempotency_keys WHERE message_id = hookline.uuid_of($1)`,
          [keyed],
        )
      ).rows,
    ).toEqual([{ n: 0 }]);
  }, 90_000);
});
