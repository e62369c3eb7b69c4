// An app's deliveries newest first, with no index on (app_id, created_at) (migration
// 20261205090000_deliveries_without_app_time_index): each endpoint's rows are read in time order
// through its index and stop at a page, whatever the endpoint holds. Checked by EXPLAIN ANALYZE of
// the list's own statement under its own settings, over 100 endpoints with 2,000 successes each, one
// of them with 10,000 retrying and two with 1,500 dead: every list reads at most a page and its ties
// per endpoint and source. Without the settings (sorts on), the failed list read the busy endpoint's
// whole queue and sorted it, on 15 and on 18. Also run on PostgreSQL 15 (vitest.config.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_LIST_SETTINGS, appDeliveriesStatement } from '../../lib/domain/deliveries/list-app-deliveries';
import type { DeliveryState } from '../../lib/domain/deliveries/delivery-states';
import { createApp, createEndpoint } from '../support/fixtures';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { nodesOf, type PlanNode } from '../support/plans';

let ctx: ApiTestContext;
let appId: string;
const PAGE = 50;

/** `count` deliveries to the endpoint in `state`, one message each, created 1 ms apart ending now. */
async function insertDeliveries(endpointId: string, count: number, state: 'pending' | 'dead' | 'succeeded') {
  await ctx.db.pool.query(
    `WITH m AS (
       INSERT INTO hookline.messages (app_id, event_type, payload, created_at, written_by)
       SELECT $1, 'invoice.paid', '{}', now() - make_interval(secs => i / 1000.0), NULL
         FROM generate_series(1, $3) AS i
       RETURNING id, created_at)
     INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
            next_attempt_at, claimable_at, last_error_class, created_at)
     SELECT hookline.new_uuid(m.id), $1, m.id, $2, 'invoice.paid', $4, CASE WHEN $4 = 'succeeded' THEN 1 ELSE 2 END,
            m.created_at, CASE WHEN $4 = 'pending' THEN now() + interval '1 day' END,
            CASE WHEN $4 <> 'succeeded' THEN 'http_5xx' END, m.created_at
       FROM m`,
    [appId, endpointId, count, state],
  );
}

beforeAll(async () => {
  ctx = await setUpApiTest();
  appId = await createApp(ctx.db.pool, 'app deliveries plan');
  // An app as the dashboard bench's: 100 endpoints, each with a history of successes; one with a
  // queue of 10,000 retrying, two with dead ones.
  const endpoints: string[] = [];
  for (let i = 0; i < 100; i++) {
    endpoints.push((await createEndpoint(ctx.db.pool, appId, `https://receiver-${i}.example.com/`)).id);
  }
  for (const endpointId of endpoints) await insertDeliveries(endpointId, 2_000, 'succeeded');
  await insertDeliveries(endpoints[5]!, 10_000, 'pending');
  await insertDeliveries(endpoints[7]!, 1_500, 'dead');
  await insertDeliveries(endpoints[42]!, 1_500, 'dead');
  await ctx.db.pool.query('ANALYZE hookline.deliveries');
}, 120_000);

describe("an app's deliveries newest first", () => {
  it.each<[string, DeliveryState[] | undefined]>([
    ['every state', undefined],
    ['retrying', ['retrying']],
    ['dead', ['dead']],
    ['failed (retrying or dead)', ['retrying', 'dead']],
    ['waiting or retrying', ['waiting', 'retrying']],
  ])('%s: reads at most a page and its ties per endpoint and source', async (_label, states) => {
    const statement = appDeliveriesStatement({ appId, states, take: PAGE + 1 });
    const client = await ctx.db.pool.connect();
    let plan: PlanNode;
    try {
      await client.query('BEGIN');
      await client.query(APP_LIST_SETTINGS.text);
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`,
        statement.values,
      );
      plan = rows[0]!['QUERY PLAN'][0].Plan;
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    const reads = nodesOf(plan).filter((node) => node['Relation Name']?.startsWith('deliveries'));
    const read = reads.reduce(
      (sum, node) =>
        sum + ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1),
      0,
    );
    const label = JSON.stringify(reads.map(({ Plans: _, ...node }) => node));
    expect(read, label).toBeGreaterThan(0);
    // At most a page and its ties per endpoint and source (of the 10,000 queued on one endpoint, the
    // 1,500 dead on two and the 2,000 succeeded on each).
    expect(read, label).toBeLessThanOrEqual(100 * 2 * (PAGE + 1));
  });

  it('lists the same page the rows ordered by (created_at, id) give, through the REST API', async () => {
    for (const state of ['failed', 'retrying', 'dead', undefined]) {
      const response = await call('GET', `/v1/apps/${appId}/deliveries`, {
        key: ctx.adminKey,
        query: { limit: String(PAGE), ...(state ? { state } : {}) },
      });
      expect(response.status, response.text).toBe(200);
      const condition = {
        failed: `state IN ('pending', 'dead')`,
        retrying: `state = 'pending'`,
        dead: `state = 'dead'`,
      }[state ?? ''];
      const { rows } = await ctx.db.pool.query<{ id: string }>(
        `SELECT hookline.public_id('dlv', id) AS id FROM hookline.deliveries WHERE app_id = $1 AND ${condition ?? 'true'}
          ORDER BY created_at DESC, id DESC LIMIT ${PAGE}`,
        [appId],
      );
      expect(
        response.body.data.map((delivery: { id: string }) => delivery.id),
        String(state),
      ).toEqual(rows.map((row) => row.id));
    }
  });
});
