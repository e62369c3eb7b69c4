// A replay by filter with a payload search (the explorer's search fields): the dry run counts, and the
// job (run by the workers' real job runner) replays, exactly the deliveries the list shows for the same
// filter and search; none of the failed deliveries the search leaves out, none of another app's.
import { beforeAll, describe, expect, it } from 'vitest';
import { countReplayMatching, REPLAY_COUNT_CAP } from '../../lib/domain/deliveries/count-replay-matching';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';
import { runQueuedJobs } from './support/jobs';

let ctx: ApiTestContext;
let appId: string;
let otherAppId: string;

/** A message with `payload` and one delivery of it in `state` (dead: failed twice with a 500). */
async function insertWithPayload(
  app: string,
  endpointId: string,
  payload: unknown,
  state = 'dead',
  messageMinutesAgo = 1,
): Promise<string> {
  // The message's id carries its time, as hookline.send gives it. Ids stored as uuid, returned public
  // as the API shows them (migration 20261208090000_ids_as_uuid).
  const message = await ctx.db.pool.query<{ id: string }>(
    `INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at)
     VALUES (hookline.new_uuid(hookline.id_at('', now() - make_interval(mins => $3))::uuid), $1,
             'order.paid', $2, now() - make_interval(mins => $3)) RETURNING id`,
    [app, JSON.stringify(payload), messageMinutesAgo],
  );
  const delivery = await ctx.db.pool.query<{ id: string }>(
    `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
            next_attempt_at, last_attempt_at, last_status_code, last_error_class, created_at, updated_at)
     VALUES (hookline.new_uuid($2::uuid), $1, $2::uuid, $3, 'order.paid', $4, 2, now(), now(), 500,
             CASE WHEN $4 = 'dead' THEN 'http_5xx' END, now() - interval '1 minute', now() - interval '1 minute')
     RETURNING hookline.public_id('dlv', id) AS id`,
    [app, message.rows[0]!.id, endpointId, state],
  );
  return delivery.rows[0]!.id;
}

beforeAll(async () => {
  ctx = await setUpApiTest();
  appId = await createApp(ctx.db.pool, 'replay-search');
  otherAppId = await createApp(ctx.db.pool, 'other');
  for (const app of [appId, otherAppId]) await createEventType(ctx.db.pool, app, 'order.paid');
  const first = (await createEndpoint(ctx.db.pool, appId, 'https://example.com/first')).id;
  const second = (await createEndpoint(ctx.db.pool, appId, 'https://example.com/second')).id;
  const other = (await createEndpoint(ctx.db.pool, otherAppId, 'https://example.com/other')).id;
  for (const endpointId of [first, second]) {
    await insertWithPayload(appId, endpointId, { customer: { id: 'cus_1', name: 'ACME Corp' }, total: 10 });
    await insertWithPayload(appId, endpointId, { customer: { id: 'cus_2', name: 'Acme Labs' }, total: 20 });
    await insertWithPayload(appId, endpointId, { customer: { id: 'cus_3', name: 'Globex' }, total: 10 });
    await insertWithPayload(appId, endpointId, { customer: { id: 42 }, total: '10' });
    // Delivered: a replay by filter without a state leaves it alone, search or not.
    await insertWithPayload(appId, endpointId, { customer: { id: 'cus_1', name: 'ACME Corp' } }, 'succeeded');
  }
  await insertWithPayload(otherAppId, other, { customer: { id: 'cus_1', name: 'ACME Corp' }, total: 10 });
});

/** Every delivery the explorer lists for `query`, following the search's cursor to the end. */
async function listed(query: Record<string, string>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await call('GET', `/v1/apps/${appId}/deliveries`, {
      key: ctx.adminKey,
      query: { ...query, limit: '250', ...(cursor ? { cursor } : {}) },
    });
    expect(response.status, response.text).toBe(200);
    ids.push(...response.body.data.map((row: { id: string }) => row.id));
    cursor = response.body.nextCursor;
  } while (cursor);
  return ids.sort();
}

async function pendingIds(): Promise<string[]> {
  const { rows } = await ctx.db.pool.query<{ id: string }>(
    `SELECT hookline.public_id('dlv', id) AS id FROM hookline.deliveries WHERE state = 'pending' ORDER BY id`,
  );
  return rows.map((row) => row.id);
}

async function resetToDead(): Promise<void> {
  await ctx.db.pool.query(
    `UPDATE hookline.deliveries SET state = 'dead', claimable_at = NULL, last_error_class = 'http_5xx' WHERE state = 'pending'`,
  );
}

describe('replay by filter with a payload search', () => {
  const searches: Record<string, string>[] = [
    { search: 'acme' },
    { payloadPath: 'customer.id', payloadValue: 'cus_1' },
    { payloadPath: 'customer.id', payloadValue: '42' },
    { payloadPath: 'customer.name', payloadValue: 'acme', payloadMatch: 'contains' },
    { search: 'acme', payloadPath: 'total', payloadValue: '10' },
  ];

  for (const search of searches) {
    it(`${JSON.stringify(search)}: the dry run and the job act on exactly what the list shows`, async () => {
      const shown = await listed({ ...search, state: 'failed' });
      // Each search matches some failed deliveries and leaves others out.
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.length).toBeLessThan((await listed({ state: 'failed' })).length);

      const dryRun = await call('POST', `/v1/apps/${appId}/deliveries/replay`, {
        key: ctx.adminKey,
        body: { filter: search, dryRun: true },
      });
      expect(dryRun.status, dryRun.text).toBe(200);
      expect(dryRun.body).toEqual({ matched: shown.length, matchedIsLowerBound: false });

      const started = await call('POST', `/v1/apps/${appId}/deliveries/replay`, {
        key: ctx.adminKey,
        body: { filter: search },
      });
      expect(started.status, started.text).toBe(200);
      expect(started.body.job.total).toBe(shown.length);
      expect(started.body.job.totalIsLowerBound).toBe(false);
      expect(started.body.job.params.filter).toMatchObject(search);
      await runQueuedJobs(ctx.db.url);
      const job = await call('GET', `/v1/apps/${appId}/jobs/${started.body.job.id}`, { key: ctx.adminKey });
      expect(job.body).toMatchObject({ state: 'succeeded', processed: shown.length });
      // Exactly the listed rows were replayed: not the failed ones the search leaves out, not the
      // other app's match, not the delivered ones.
      expect(await pendingIds()).toEqual(shown);
      await resetToDead();
    });
  }

  it("with a time range, bounds the message's time as the search does: a backfilled delivery of an old message", async () => {
    // A message of two hours ago whose delivery (a backfill's) was made a minute ago.
    const endpointId = (await createEndpoint(ctx.db.pool, appId, 'https://example.com/backfilled')).id;
    const backfilled = await insertWithPayload(appId, endpointId, { customer: { name: 'Acme Old' } }, 'dead', 120);
    const range = {
      from: new Date(Date.now() - 3 * 3_600_000).toISOString(),
      to: new Date(Date.now() - 3_600_000).toISOString(),
    };
    const filter = { search: 'acme', ...range };
    expect(await listed({ ...filter, state: 'failed' })).toEqual([backfilled]);
    const dryRun = await call('POST', `/v1/apps/${appId}/deliveries/replay`, {
      key: ctx.adminKey,
      body: { filter, dryRun: true },
    });
    expect(dryRun.body).toEqual({ matched: 1, matchedIsLowerBound: false });
    const started = await call('POST', `/v1/apps/${appId}/deliveries/replay`, { key: ctx.adminKey, body: { filter } });
    expect(started.body.job.total).toBe(1);
    await runQueuedJobs(ctx.db.url);
    expect(await pendingIds()).toEqual([backfilled]);
    await resetToDead();
    await ctx.db.pool.query(
      `UPDATE hookline.deliveries SET state = 'succeeded', last_error_class = NULL WHERE id = hookline.uuid_of($1)`,
      [backfilled],
    );
  });

  it('a replay job created on /jobs takes the search too', async () => {
    const search = { payloadPath: 'customer.id', payloadValue: 'cus_2' };
    const shown = await listed({ ...search, state: 'dead' });
    expect(shown).toHaveLength(2);
    const created = await call('POST', `/v1/apps/${appId}/jobs`, {
      key: ctx.adminKey,
      body: { kind: 'replay', filter: { ...search, state: 'dead' } },
    });
    expect(created.status, created.text).toBe(202);
    expect(created.body.total).toBe(2);
    await runQueuedJobs(ctx.db.url);
    expect(await pendingIds()).toEqual(shown);
    await resetToDead();
  });

  it('an incomplete search is refused, naming the field, and starts nothing', async () => {
    const response = await call('POST', `/v1/apps/${appId}/deliveries/replay`, {
      key: ctx.adminKey,
      body: { filter: { payloadValue: 'cus_1' } },
    });
    expectError(response, 422, 'validation_failed', 'filter.payloadPath');
    const { rows } = await ctx.db.pool.query(`SELECT count(*)::int AS n FROM hookline.jobs WHERE state = 'queued'`);
    expect(rows[0].n).toBe(0);
  });
});

describe('replay by filter with a payload search over a history larger than the count cap', () => {
  const BULK = REPLAY_COUNT_CAP + 1_500;
  let bulkAppId: string;
  let left: string;

  beforeAll(async () => {
    bulkAppId = await createApp(ctx.db.pool, 'replay-cap');
    await createEventType(ctx.db.pool, bulkAppId, 'order.paid');
    const endpointId = (await createEndpoint(ctx.db.pool, bulkAppId, 'https://example.com/bulk')).id;
    // BULK dead deliveries whose messages hold "bulk-cap", in one statement each table.
    await ctx.db.pool.query(
      `INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at)
       SELECT hookline.new_uuid(hookline.id_at('', now() - interval '2 minutes')::uuid), $1, 'order.paid',
              jsonb_build_object('batch', 'bulk-cap', 'n', g), now() - interval '2 minutes'
         FROM generate_series(1, $2) AS g`,
      [bulkAppId, BULK],
    );
    await ctx.db.pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
              next_attempt_at, last_attempt_at, last_status_code, last_error_class, created_at, updated_at)
       SELECT hookline.new_uuid(m.id), m.app_id, m.id, $2, 'order.paid', 'dead', 2, now(), now(), 500, 'http_5xx',
              now() - interval '1 minute', now() - interval '1 minute'
         FROM hookline.messages AS m WHERE m.app_id = $1`,
      [bulkAppId, endpointId],
    );
    // A failed delivery the search leaves out: no replay may touch it.
    left = await insertWithPayload(bulkAppId, endpointId, { batch: 'other' });
  });

  const search = { search: 'bulk-cap' };

  it('the dry run stops at the cap and says the count is a lower bound; unbounded, it is exact', async () => {
    const dryRun = await call('POST', `/v1/apps/${bulkAppId}/deliveries/replay`, {
      key: ctx.adminKey,
      body: { filter: search, dryRun: true },
    });
    expect(dryRun.status, dryRun.text).toBe(200);
    // Stopped by the cap, or on a slow machine by the budget (HOOKLINE_SEARCH_BUDGET_MS) before it.
    expect(dryRun.body.matchedIsLowerBound).toBe(true);
    expect(dryRun.body.matched).toBeGreaterThan(0);
    expect(dryRun.body.matched).toBeLessThan(BULK);
    // With all the time it needs, it stops at the cap: two pages of 5,000 matches each.
    expect(
      await countReplayMatching({ appId: bulkAppId, filter: { ...search, state: 'failed' }, budgetMs: 600_000 }),
    ).toEqual({ count: REPLAY_COUNT_CAP, lowerBound: true });
    // Unbounded (a cap and a budget it cannot reach), the same count is exact.
    const exact = await countReplayMatching({
      appId: bulkAppId,
      filter: { ...search, state: 'failed' },
      cap: Infinity,
      budgetMs: 600_000,
    });
    expect(exact).toEqual({ count: BULK, lowerBound: false });
  });

  it('a count out of budget answers what it counted so far, as a lower bound, within the budget', async () => {
    const started = performance.now();
    const bounded = await countReplayMatching({
      appId: bulkAppId,
      filter: { ...search, state: 'failed' },
      cap: Infinity,
      budgetMs: 1,
    });
    const tookMs = performance.now() - started;
    expect(bounded.lowerBound).toBe(true);
    expect(bounded.count).toBeLessThan(BULK);
    // The first page may take 100 ms (FIRST_PAGE_MS) and a transaction's round trips; nothing more.
    expect(tookMs).toBeLessThan(1_000);
  });

  it('the job, whose total is a lower bound, still replays every match and nothing else', async () => {
    const started = await call('POST', `/v1/apps/${bulkAppId}/deliveries/replay`, {
      key: ctx.adminKey,
      body: { filter: search },
    });
    expect(started.status, started.text).toBe(200);
    expect(started.body.job.totalIsLowerBound).toBe(true);
    expect(started.body.job.total).toBeLessThan(BULK);
    await runQueuedJobs(ctx.db.url);
    const job = await call('GET', `/v1/apps/${bulkAppId}/jobs/${started.body.job.id}`, { key: ctx.adminKey });
    expect(job.body).toMatchObject({ state: 'succeeded', processed: BULK, totalIsLowerBound: true });
    const { rows } = await ctx.db.pool.query<{ state: string; bulk: boolean; n: number }>(
      `SELECT d.state, m.payload ->> 'batch' = 'bulk-cap' AS bulk, count(*)::int AS n
         FROM hookline.deliveries AS d JOIN hookline.messages AS m ON m.id = d.message_id
        WHERE d.app_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [bulkAppId],
    );
    expect(rows).toEqual([
      { state: 'dead', bulk: false, n: 1 },
      { state: 'pending', bulk: true, n: BULK },
    ]);
    const [untouched] = (
      await ctx.db.pool.query(`SELECT state FROM hookline.deliveries WHERE id = hookline.uuid_of($1)`, [left])
    ).rows;
    expect(untouched.state).toBe('dead');
    await resetToDead();
  });
});
