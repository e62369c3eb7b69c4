// More workers never wait on each other's rollups (migration 20261124152000_rollup_shards): each
// worker upserts the dashboard's rollup rows of its own shard. Here another worker's flush is held
// open in the middle of writing this minute's rows of shard 2 (its row locks taken, not committed);
// a worker on shard 1 still records its results, and the dashboard's sums count both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows, createApp, createEndpoint, createEventType, type EndpointFixture } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let db: TestDatabase;
let appId: string;
let endpoint: EndpointFixture;
let receiver: Receiver;

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool, 'Ix');
  await createEventType(db.pool, appId, 'navigator.folded');
  receiver = await startReceiver();
  endpoint = await createEndpoint(db.pool, appId, `${receiver.url}/hook`);
});

afterAll(async () => {
  await stopTestWorkers();
  await receiver.close();
});

const sendEvents = (count: number) =>
  db.pool.query(
    `SELECT hookline.send($1, 'navigator.folded', jsonb_build_object('n', n)) FROM generate_series(1, $2) AS n`,
    [appId, count],
  );

describe('rollup shards', () => {
  it("records results while another worker's flush holds its rollup rows, and the sums count both", async () => {
    // Another worker, shard 2, in the middle of a flush: this minute's and hour's rows written and locked.
    const other = await db.pool.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `SELECT hookline.add_to_rollups(2::smallint, ARRAY[now()], ARRAY[$1], ARRAY[$2], ARRAY[3.0::float8],
                                        ARRAY[200], ARRAY[NULL::text])`,
        [appId, endpoint.id],
      );
      await startTestWorker(db.url, { rollupShard: 1 });
      await sendEvents(20);
      // With one row per minute for every worker, this flush would wait for the open transaction.
      await waitUntil(
        async () =>
          (await countRows(db.pool, 'deliveries', `endpoint_id = $1 AND state = 'succeeded'`, [endpoint.id])) === 20,
        { what: 'all 20 results recorded while shard 2 is locked', timeoutMs: 10_000 },
      );
      await other.query('COMMIT');
    } finally {
      other.release();
    }
    const { rows } = await db.pool.query<{ shard: number; attempts: number }>(
      `SELECT shard, sum(attempts)::int AS attempts FROM hookline.stats_minutely WHERE endpoint_id = $1 GROUP BY shard ORDER BY shard`,
      [endpoint.id],
    );
    expect(rows).toEqual([
      { shard: 1, attempts: 20 },
      { shard: 2, attempts: 1 },
    ]);
    for (const table of ['stats_hourly', 'stats_app_minutely', 'stats_app_hourly']) {
      const total = await db.pool.query<{ attempts: number }>(
        `SELECT sum(attempts)::int AS attempts FROM hookline.${table} WHERE app_id = $1`,
        [appId],
      );
      expect(total.rows[0]!.attempts, table).toBe(21);
    }
  });
});
