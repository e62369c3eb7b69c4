// The overview's dead card costs the same at any history (issue 22: dashboard p95 < 200 ms). Dead
// deliveries stay until retention drops their period, and counting each one is a heap visit:
// deliveries_dead_idx also holds cancelled deliveries that had failed, and `state`, which tells them
// apart, is in no index (a first attempt's update stays HOT; migration 20261124110000_hot_first_attempts).
// The count stops at 10,000 and says so (queue.deadCapped, "10,000+" on the card).
// Behind 12,500 dead deliveries in a history of 200,000 finished ones, the count is checked by
// EXPLAIN ANALYZE: it reads through deliveries_dead_idx and visits at most 10,001 heap rows. Before,
// it visited all 12,500 (73,394 buffers and 0.7-1.2 s with 73 k dead in the benchmark's database).
// Also run on PostgreSQL 15 (vitest.config.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { DEAD_COUNT_CAP, deadCountStatement } from '../../lib/domain/stats/read-queue-depth';
import { createApp, createEndpoint } from '../support/fixtures';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { nodesOf, type PlanNode } from '../support/plans';

let ctx: ApiTestContext;
let appA: string;
let appB: string;
let busyEndpoint: string;
let quietEndpoint: string;
let endpointB: string;

const DEAD_BEHIND = 12_500;

/** `count` deliveries of one new message of the endpoint, in one state, with ids of its time. */
async function insertDeliveries(
  appId: string,
  endpointId: string,
  count: number,
  state: string,
  errorClass: string | null,
) {
  const { rows } = await ctx.db.pool.query<{ id: string }>(
    `INSERT INTO hookline.messages (app_id, event_type, payload) VALUES ($1, 'invoice.paid', '{}') RETURNING id`,
    [appId],
  );
  await ctx.db.pool.query(
    `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                      last_error_class, last_status_code)
     SELECT hookline.new_uuid($2::uuid), $1, $2::uuid, $3, 'invoice.paid', $4,
            3, $5::text, CASE WHEN $5::text IS NULL THEN 200 ELSE 503 END
       FROM generate_series(1, $6::int) AS n`,
    [appId, rows[0]!.id, endpointId, state, errorClass, count],
  );
}

beforeAll(async () => {
  ctx = await setUpApiTest();
  appA = await createApp(ctx.db.pool, 'Arrakis');
  appB = await createApp(ctx.db.pool, 'Caladan');
  busyEndpoint = (await createEndpoint(ctx.db.pool, appA, 'https://example.com/busy')).id;
  quietEndpoint = (await createEndpoint(ctx.db.pool, appA, 'https://example.com/quiet')).id;
  endpointB = (await createEndpoint(ctx.db.pool, appB, 'https://example.com/b')).id;
  // History: 200,000 finished deliveries of the busy endpoint, one in 16 dead, spread through it as
  // in the benchmark's fill (dead rows on pages of their own, not packed together).
  const { rows } = await ctx.db.pool.query<{ id: string }>(
    `INSERT INTO hookline.messages (app_id, event_type, payload) VALUES ($1, 'invoice.paid', '{}') RETURNING id`,
    [appA],
  );
  await ctx.db.pool.query(
    `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                      last_error_class, last_status_code)
     SELECT hookline.new_uuid($2::uuid), $1, $2::uuid, $3, 'invoice.paid',
            CASE WHEN dead THEN 'dead' ELSE 'succeeded' END, 3, CASE WHEN dead THEN 'http_5xx' END,
            CASE WHEN dead THEN 503 ELSE 200 END
       FROM generate_series(1, $4::int * 16) AS n, LATERAL (SELECT n % 16 = 0 AS dead) AS d`,
    [appA, rows[0]!.id, busyEndpoint, DEAD_BEHIND],
  );
  // Under the cap the count is exact: cancelled deliveries that had failed share the index, not the card.
  await insertDeliveries(appA, quietEndpoint, 2, 'dead', 'timeout');
  await insertDeliveries(appA, quietEndpoint, 3, 'cancelled', 'timeout');
  await insertDeliveries(appB, endpointB, 1, 'dead', 'connection');
  // Statistics of each partition that holds rows, as autovacuum would have them: the planner reads a
  // partition's own (a partition last analyzed while empty is planned as empty).
  const { rows: partitions } = await ctx.db.pool.query<{ name: string }>(
    `SELECT partition_name AS name FROM hookline.time_partitions('deliveries')`,
  );
  for (const { name } of partitions) await ctx.db.pool.query(`VACUUM ANALYZE hookline.${name}`);
});

const stats = (query: Record<string, string>) => call('GET', '/v1/stats', { key: ctx.adminKey, query });

describe('the dead count', () => {
  it('is exact under the cap, and says "more" past it instead of a lower bound as the number', async () => {
    const quiet = await stats({ endpointId: quietEndpoint });
    expect(quiet.status, quiet.text).toBe(200);
    expect(quiet.body.queue).toMatchObject({ dead: 2, deadCapped: false });
    const other = await stats({ appId: appB });
    expect(other.body.queue).toMatchObject({ dead: 1, deadCapped: false });

    for (const query of [{ appId: appA }, { endpointId: busyEndpoint }, {}] as Record<string, string>[]) {
      const response = await stats(query);
      expect(response.status, response.text).toBe(200);
      expect(response.body.queue).toMatchObject({ dead: DEAD_COUNT_CAP, deadCapped: true });
      // The chart's latest point is the live count only where that is a number: no sample, no point.
      expect(response.body.series.at(-1).dead).toBeNull();
    }
  });

  it('visits at most the cap of rows through deliveries_dead_idx, whatever the history holds', async () => {
    for (const scope of [{ appId: appA }, { appId: appA, endpointId: busyEndpoint }, {}, { appIds: [appA, appB] }]) {
      const statement = deadCountStatement(scope);
      const { rows } = await ctx.db.pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`,
        statement.values,
      );
      const nodes = nodesOf(rows[0]!['QUERY PLAN'][0].Plan).filter((node) => (node['Actual Loops'] ?? 0) > 0);
      // The partitions that hold rows (the test's rows land in the legacy partition or a period,
      // depending on the minute the template was migrated) are read through the dead index's
      // partition (each has a name of its own): an index scan, or a bitmap scan whose index part reads
      // the matching entries (hundreds to a block) and whose heap part stops at the LIMIT.
      const reads = nodes.filter((node) => node['Relation Name']?.startsWith('deliveries'));
      const label = `${JSON.stringify(scope)}: ${JSON.stringify(reads.map(({ Plans: _, ...node }) => node))}`;
      expect(reads.length, label).toBeGreaterThan(0);
      const indexes = nodes.flatMap((node) => (node['Index Name'] ? [node['Index Name']] : []));
      const { rows: ofDeadIndex } = await ctx.db.pool.query<{ name: string }>(
        `SELECT i.relname AS name FROM pg_class AS i
          WHERE i.relname = ANY ($1::text[])
            AND 'hookline.deliveries_dead_idx'::regclass IN (SELECT relid FROM pg_partition_ancestors(i.oid))`,
        [indexes],
      );
      expect(ofDeadIndex.map((row) => row.name).sort(), label).toEqual([...indexes].sort());
      // An empty partition may be read by a seq scan of nothing; every one that holds rows, by index.
      for (const node of reads.filter(
        (read) => (read['Actual Rows'] ?? 0) + (read['Rows Removed by Filter'] ?? 0) > 0,
      )) {
        expect(['Index Scan', 'Bitmap Heap Scan'], label).toContain(node['Node Type']);
      }
      // The heap rows visited: each one a buffer where the rows are spread over the history.
      const visited = reads.reduce(
        (sum, node) =>
          sum + ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1),
        0,
      );
      expect(visited, label).toBeLessThanOrEqual(DEAD_COUNT_CAP + 1);
    }
  });
});
