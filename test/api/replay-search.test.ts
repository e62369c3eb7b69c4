// A replay by filter with a payload search (the explorer's search fields): the dry run counts, and the
// job (run by the workers' real job runner) replays, exactly the deliveries the list shows for the same
// filter and search; none of the failed deliveries the search leaves out, none of another app's.
import { beforeAll, describe, expect, it } from 'vitest';
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
  // The message's id carries its time, as hookline.send gives it.
  const message = await ctx.db.pool.query<{ id: string }>(
    `INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at)
     VALUES (hookline.id_at('msg', now() - make_interval(mins => $3)) || substr(hookline.new_id(''), 14), $1,
             'order.paid', $2, now() - make_interval(mins => $3)) RETURNING id`,
    [app, JSON.stringify(payload), messageMinutesAgo],
  );
  const delivery = await ctx.db.pool.query<{ id: string }>(
    `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
            next_attempt_at, last_attempt_at, last_status_code, last_error_class, created_at, updated_at)
     VALUES (hookline.new_id('dlv', $2), $1, $2, $3, 'order.paid', $4, 2, now(), now(), 500,
             CASE WHEN $4 = 'dead' THEN 'http_5xx' END, now() - interval '1 minute', now() - interval '1 minute')
     RETURNING id`,
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
    `SELECT id FROM hookline.deliveries WHERE state = 'pending' ORDER BY id`,
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
      expect(dryRun.body).toEqual({ matched: shown.length });

      const started = await call('POST', `/v1/apps/${appId}/deliveries/replay`, {
        key: ctx.adminKey,
        body: { filter: search },
      });
      expect(started.status, started.text).toBe(200);
      expect(started.body.job.total).toBe(shown.length);
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
    expect(dryRun.body).toEqual({ matched: 1 });
    const started = await call('POST', `/v1/apps/${appId}/deliveries/replay`, { key: ctx.adminKey, body: { filter } });
    expect(started.body.job.total).toBe(1);
    await runQueuedJobs(ctx.db.url);
    expect(await pendingIds()).toEqual([backfilled]);
    await resetToDead();
    await ctx.db.pool.query(
      `UPDATE hookline.deliveries SET state = 'succeeded', last_error_class = NULL WHERE id = $1`,
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
