// The live queue's counts cost the same at any backlog (issue 22: dashboard p95 < 200 ms at 100 M
// deliveries). Each unfinished delivery counted is a heap visit, and an outage makes the queue as long
// as it lasts: at the benchmark's 10 M deliveries (100,000 waiting for a retry) the overview read
// ~100,000 buffers for its cards, and the endpoints' health read the whole queue for every endpoint.
// Now an app's or endpoint's queue is read alone (deliveries_queue_idx, migration
// 20261130110000_queue_by_endpoint), the overview's and apps list's counts stop at 10,000 rows read
// (queue.liveCapped, queueCapped: "N+"), and endpoints' queued counts share that budget
// (health.pendingCapped).
// Behind 12,500 waiting deliveries of one endpoint: a quiet endpoint and another app are counted
// exactly, reading their own rows only (EXPLAIN ANALYZE), and the busy scopes stop at the caps.
// Also run on PostgreSQL 15 (vitest.config.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { pendingCountCap, pendingCountStatement } from '../../lib/domain/endpoints/endpoint-view';
import type { Prisma } from '../../lib/generated/prisma/client';
import { LIVE_COUNT_CAP, liveQueueStatement } from '../../lib/domain/stats/read-live-queue';
import { createApp, createEndpoint } from '../support/fixtures';
import { nodesOf, type PlanNode } from '../support/plans';
import { call, setUpApiTest, type ApiTestContext } from './support/api';

let ctx: ApiTestContext;
let busyApp: string;
let quietApp: string;
let busyEndpoint: string;
let quietEndpoint: string;
let otherAppEndpoint: string;

const BACKLOG = 12_500;

/**
 * `count` deliveries of one new message: waiting in the claim queue (pending, tried `attempts` times,
 * due in an hour), or finished (succeeded, out of the claim queue).
 */
async function insertDeliveries(
  appId: string,
  endpointId: string,
  count: number,
  as: { waiting: true; attempts: number } | { waiting: false },
) {
  const { rows } = await ctx.db.pool.query<{ id: string }>(
    `INSERT INTO hookline.messages (app_id, event_type, payload, written_by) VALUES ($1, 'invoice.paid', '{}', NULL)
     RETURNING id`,
    [appId],
  );
  await ctx.db.pool.query(
    `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                      next_attempt_at, claimable_at)
     SELECT hookline.new_uuid($2::uuid), $1, $2::uuid, $3, 'invoice.paid',
            CASE WHEN $5 THEN 'pending' ELSE 'succeeded' END, $6,
            now() + interval '1 hour', CASE WHEN $5 THEN now() + interval '1 hour' END
       FROM generate_series(1, $4::int) AS n`,
    [appId, rows[0]!.id, endpointId, count, as.waiting, as.waiting ? as.attempts : 1],
  );
}

beforeAll(async () => {
  ctx = await setUpApiTest();
  busyApp = await createApp(ctx.db.pool, 'Giedi Prime');
  quietApp = await createApp(ctx.db.pool, 'Ix');
  busyEndpoint = (await createEndpoint(ctx.db.pool, busyApp, 'https://example.com/busy')).id;
  quietEndpoint = (await createEndpoint(ctx.db.pool, busyApp, 'https://example.com/quiet')).id;
  otherAppEndpoint = (await createEndpoint(ctx.db.pool, quietApp, 'https://example.com/other')).id;
  // History: 30,000 finished deliveries of each endpoint, which no count may read (through an app's or
  // endpoint's index, a quiet scope would walk its whole history to find its few unfinished rows).
  for (const [appId, endpointId] of [
    [busyApp, busyEndpoint],
    [busyApp, quietEndpoint],
    [quietApp, otherAppEndpoint],
  ] as const) {
    await insertDeliveries(appId, endpointId, 30_000, { waiting: false });
  }
  // Inserted after the quiet ones, so a scan of the whole queue in due order meets them too.
  await insertDeliveries(busyApp, quietEndpoint, 3, { waiting: true, attempts: 0 });
  await insertDeliveries(quietApp, otherAppEndpoint, 2, { waiting: true, attempts: 1 });
  await insertDeliveries(busyApp, busyEndpoint, BACKLOG, { waiting: true, attempts: 1 });
  const { rows: partitions } = await ctx.db.pool.query<{ name: string }>(
    `SELECT partition_name AS name FROM hookline.time_partitions('deliveries')`,
  );
  for (const { name } of partitions) await ctx.db.pool.query(`VACUUM ANALYZE hookline.${name}`);
});

/**
 * What a count statement reads of deliveries, by EXPLAIN ANALYZE, run as readQueueRows runs it (plain
 * index scans and JIT off, in a transaction of its own): the heap rows it visits, the indexes it scans
 * (by their parent's name: each partition's index has a name of its own), and a label that shows it.
 */
async function deliveryReads(
  statement: Prisma.Sql,
  what: string,
): Promise<{ visited: number; indexes: string[]; label: string }> {
  const client = await ctx.db.pool.connect();
  let plan: PlanNode;
  try {
    await client.query('BEGIN');
    await client.query(`SELECT set_config('enable_indexscan', 'off', true), set_config('jit', 'off', true)`);
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`,
      statement.values,
    );
    plan = rows[0]!['QUERY PLAN'][0].Plan;
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
  const reads = nodesOf(plan).filter(
    (node) => (node['Actual Loops'] ?? 0) > 0 && node['Relation Name']?.startsWith('deliveries'),
  );
  const visited = reads.reduce(
    (sum, node) =>
      sum + ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1),
    0,
  );
  const scanned = nodesOf(plan).flatMap((node) =>
    (node['Actual Loops'] ?? 0) > 0 && node['Index Name'] ? [node['Index Name']] : [],
  );
  // Of the indexes scanned, deliveries' (by their partitioned parent), not the endpoints' a scope reads.
  const { rows: parents } = await ctx.db.pool.query<{ name: string }>(
    `SELECT DISTINCT coalesce(pg_partition_root(i.indexrelid), i.indexrelid)::regclass::text AS name
       FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid
      WHERE c.relname = ANY ($1::text[])
        AND coalesce(pg_partition_root(i.indrelid), i.indrelid) = 'hookline.deliveries'::regclass`,
    [scanned],
  );
  const label = `${what}: ${JSON.stringify(reads.map(({ Plans: _, ...node }) => node))}`;
  return { visited, indexes: parents.map((row) => row.name).sort(), label };
}

const get = (path: string, query: Record<string, string> = {}) => call('GET', path, { key: ctx.adminKey, query });

describe('the live queue count', () => {
  it('is exact for a quiet scope beside a backlog, and says "at least" for the backlog past 10,000', async () => {
    const quiet = await get('/v1/stats', { endpointId: quietEndpoint });
    expect(quiet.status, quiet.text).toBe(200);
    expect(quiet.body.queue).toMatchObject({ waiting: 3, retrying: 0, delivering: 0, liveCapped: false });
    const other = await get('/v1/stats', { appId: quietApp });
    expect(other.body.queue).toMatchObject({ waiting: 0, retrying: 2, liveCapped: false });
    expect(other.body.queue.waitingFor).toEqual({ worker: 0, circuit: 0, endpointEnabled: 0, retryTime: 2 });

    for (const query of [{ appId: busyApp }, { endpointId: busyEndpoint }, {}] as Record<string, string>[]) {
      const response = await get('/v1/stats', query);
      expect(response.status, response.text).toBe(200);
      const { queue } = response.body;
      const label = JSON.stringify({ query, queue });
      expect(queue.liveCapped, label).toBe(true);
      // The rows read, one more than the cap, each counted once: lower bounds that add up.
      expect(queue.waiting + queue.retrying + queue.delivering, label).toBe(LIVE_COUNT_CAP + 1);
      expect(
        Object.values(queue.waitingFor as Record<string, number>).reduce((a, b) => a + b),
        label,
      ).toBe(queue.waiting + queue.retrying);
      // The chart's latest point is no lower bound: the states keep their sample (none here).
      expect(response.body.series.at(-1).retrying, label).toBeNull();
    }
  });

  it('reads only the rows of the app or endpoint asked for, and at most the cap of them', async () => {
    // The live queue of the overview and the apps list.
    const scopes = [
      { scope: { appId: quietApp }, inScope: 2 },
      { scope: { appId: busyApp, endpointId: quietEndpoint }, inScope: 3 },
      { scope: { appIds: [quietApp] }, inScope: 2 },
      { scope: { appId: busyApp }, inScope: BACKLOG + 3 },
      { scope: {}, inScope: BACKLOG + 5 },
    ];
    for (const { scope, inScope } of scopes) {
      const { visited, indexes, label } = await deliveryReads(liveQueueStatement(scope), JSON.stringify(scope));
      // Without deliveries_queue_idx a scoped count walked the claim index through every app's rows, or
      // ANDed the whole claim index with the endpoint's history in its (endpoint_id, created_at) index.
      expect(indexes, label).toEqual(['hookline.deliveries_queue_idx']);
      expect(visited, label).toBeLessThanOrEqual(Math.min(inScope, LIVE_COUNT_CAP + 1));
    }
    // The endpoints' queued counts: each endpoint's rows, up to the cap each.
    const quiet = { id: quietEndpoint, appId: busyApp };
    const busy = { id: busyEndpoint, appId: busyApp };
    const other = { id: otherAppEndpoint, appId: quietApp };
    for (const { endpoints, bound } of [
      { endpoints: [quiet], bound: 3 },
      { endpoints: [other], bound: 2 },
      { endpoints: [busy, quiet], bound: pendingCountCap(2) + 1 + 3 },
    ]) {
      const cap = pendingCountCap(endpoints.length);
      const { visited, indexes, label } = await deliveryReads(
        pendingCountStatement(endpoints, cap),
        JSON.stringify(endpoints.map((endpoint) => endpoint.id)),
      );
      expect(indexes, label).toEqual(['hookline.deliveries_queue_idx']);
      expect(visited, label).toBeLessThanOrEqual(bound);
    }
  });

  it('stops at 10,000 in the apps list and shares 10,000 among the endpoints listed, exact below', async () => {
    const apps = await get('/v1/apps', { summary: 'true' });
    expect(apps.status, apps.text).toBe(200);
    const summaryOf = (id: string) =>
      (apps.body.data as { id: string; summary: { queued: number; queueCapped: boolean } }[]).find(
        (app) => app.id === id,
      )!.summary;
    expect(summaryOf(busyApp).queueCapped).toBe(true);
    expect(summaryOf(quietApp).queueCapped).toBe(true);
    expect(summaryOf(busyApp).queued + summaryOf(quietApp).queued).toBe(LIVE_COUNT_CAP + 1);

    const endpoints = await get(`/v1/apps/${busyApp}/endpoints`);
    expect(endpoints.status, endpoints.text).toBe(200);
    const healthOf = (id: string) =>
      (endpoints.body.data as { id: string; health: { pending: number; pendingCapped: boolean } }[]).find(
        (endpoint) => endpoint.id === id,
      )!.health;
    // Two endpoints listed share the budget: 5,000 each.
    expect(healthOf(busyEndpoint)).toMatchObject({ pending: pendingCountCap(2), pendingCapped: true });
    expect(healthOf(quietEndpoint)).toMatchObject({ pending: 3, pendingCapped: false });
    const other = await get(`/v1/apps/${quietApp}/endpoints/${otherAppEndpoint}`);
    expect(other.body.health).toMatchObject({ pending: 2, pendingCapped: false });
    // One endpoint alone counts to 10,000.
    const busy = await get(`/v1/apps/${busyApp}/endpoints/${busyEndpoint}`);
    expect(busy.body.health).toMatchObject({ pending: 10_000, pendingCapped: true });
  });
});
