// The claim stays a read of the partial claim index however many finished rows the table holds.
// (Retention itself drops whole time partitions: test/worker/time-partitions.test.ts.)
import { beforeAll, describe, expect, it } from 'vitest';
import { statements } from '../../worker/statements';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { nodesOf, type PlanNode } from '../support/plans';

let db: TestDatabase;
let appId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool, 'Salusa Secundus');
  await createEventType(db.pool, appId, 'sardaukar.history');
});

describe('the claim with 200,000 finished rows', () => {
  it('reads the partial claim index, not the finished rows', async () => {
    const endpoint = await createEndpoint(db.pool, appId, 'http://127.0.0.1:9/', { eventTypes: ['sardaukar.history'] });
    // Ids given, not drawn by hookline.new_uuid(): a quarter of the insert's time (2.1 s instead of 2.8 s
    // per 50,000 rows), the rest is the 7 indexes. Each carries its message's time, as a partition
    // requires.
    await db.pool.query(
      `WITH message AS (
         INSERT INTO hookline.messages (app_id, event_type, payload, written_by) VALUES ($1, 'sardaukar.history', '{}', NULL) RETURNING id
       )
       INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, next_attempt_at,
                                        last_error_class, updated_at)
       SELECT (substr(replace(message.id::text, '-', ''), 1, 12) || lpad(n::text, 20, '0'))::uuid, $1, message.id, $2, 'sardaukar.history', (ARRAY['succeeded', 'dead', 'cancelled'])[1 + n % 3], 1,
              now() - interval '1 hour', CASE WHEN n % 3 = 1 THEN 'timeout' END, now() - make_interval(secs => n)
         FROM message, generate_series(1, 200000) AS n`,
      [appId, endpoint.id],
    );
    // And a live queue: 100 due, 100 not yet due.
    await db.pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, next_attempt_at, claimable_at)
       SELECT hookline.new_uuid(message_id), app_id, message_id, endpoint_id, event_type,
              now() + make_interval(secs => n - 100), now() + make_interval(secs => n - 100)
         FROM (SELECT * FROM hookline.deliveries WHERE event_type = 'sardaukar.history' LIMIT 1) AS d,
              generate_series(1, 200) AS n`,
    );
    await db.pool.query('ANALYZE hookline.deliveries');
    const { rows: size } = await db.pool.query<{ pages: number }>(
      `SELECT (sum(pg_relation_size(relid)) / current_setting('block_size')::int)::int AS pages
         FROM pg_partition_tree('hookline.deliveries')`,
    );
    expect(size[0]!.pages).toBeGreaterThan(2000);

    const client = await db.pool.connect();
    try {
      // The real statement, run (EXPLAIN ANALYZE) inside a transaction that is rolled back.
      await client.query('BEGIN');
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)\n${statements.claimDeliveries.text}`,
        statements.claimDeliveries.values({
          workerId: 'explain-worker',
          limit: 64,
          leaseSeconds: 30,
          stillOursIds: [],
        }),
      );
      // The `due` CTE is the search for claimable rows; the rest of the plan updates the 64 it found
      // (and their index entries), which costs the same with 200 or 200,000 finished rows.
      const due = nodesOf(rows[0]!['QUERY PLAN'][0].Plan).find((node) => node['Subplan Name'] === 'CTE due')!;
      const search = nodesOf(due);
      expect(due['Actual Rows']).toBe(64);
      // Each partition is read through its share of the claim index; an empty one (the legacy
      // partition, periods ahead) may be read whole, which reads nothing.
      const deliveriesNodes = search.filter((node) => node['Relation Name']?.startsWith('deliveries'));
      expect(deliveriesNodes.some((node) => node['Node Type'] === 'Index Scan')).toBe(true);
      for (const node of deliveriesNodes) {
        if (node['Node Type'] === 'Index Scan') expect(node['Index Name']).toMatch(/claim/);
        else
          expect([node['Node Type'], node['Actual Rows'], node['Rows Removed by Filter'] ?? 0]).toEqual([
            'Seq Scan',
            0,
            0,
          ]);
      }
      expect(search.reduce((sum, node) => sum + (node['Rows Removed by Filter'] ?? 0), 0)).toBe(0);
      // The 64 rows' heap pages and a few index pages (68 when measured), out of thousands.
      expect((due['Shared Hit Blocks'] ?? 0) + (due['Shared Read Blocks'] ?? 0)).toBeLessThan(200);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }, 60_000);
});
