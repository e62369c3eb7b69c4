// /api/v1/apps/{appId}/jobs and /endpoints/{endpointId}/backfill: start a job (202 with its count),
// list and get it with its progress, cancel it; validation names the field; another app's key sees
// and cancels nothing. The jobs run with the workers' real job runner.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { appLimitedKey, call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';
import { runQueuedJobs } from './support/jobs';
import { insertDelivery } from './support/world';
import { skipFanOut } from '../support/deliveries';

let ctx: ApiTestContext;
let appId: string;
let endpointId: string;

beforeAll(async () => {
  ctx = await setUpApiTest();
  appId = await createApp(ctx.db.pool, 'jobs');
  await createEventType(ctx.db.pool, appId, 'invoice.paid');
  endpointId = (await createEndpoint(ctx.db.pool, appId, 'https://example.com/jobs')).id;
  for (let index = 0; index < 4; index++) {
    await insertDelivery(ctx.db.pool, {
      appId,
      endpointId,
      state: 'dead',
      attemptCount: 8,
      lastErrorClass: 'timeout',
      createdSecondsAgo: 60,
    });
  }
  await insertDelivery(ctx.db.pool, { appId, endpointId, state: 'succeeded', attemptCount: 1, createdSecondsAgo: 60 });
});

const jobs = () => `/v1/apps/${appId}/jobs`;

describe('POST /apps/{appId}/jobs', () => {
  it('starts a replay, a recover or a backfill: 202, queued, total counted now', async () => {
    const replay = await call('POST', jobs(), {
      key: ctx.adminKey,
      body: { kind: 'replay', filter: { state: 'dead' } },
    });
    expect(replay.status, replay.text).toBe(202);
    expect(replay.body).toMatchObject({
      appId,
      kind: 'replay',
      state: 'queued',
      total: 4,
      processed: 0,
      params: { filter: { state: 'dead' } },
      startedAt: null,
      finishedAt: null,
      error: null,
    });
    expect(replay.body.id).toMatch(/^job_/);
    const since = new Date(Date.now() - 3600e3).toISOString();
    const recover = await call('POST', jobs(), { key: ctx.adminKey, body: { kind: 'recover', endpointId, since } });
    expect(recover.status, recover.text).toBe(202);
    expect(recover.body).toMatchObject({ kind: 'recover', total: 4, params: { endpointId, since } });
    // The endpoint has a delivery of each of its 5 messages: nothing to backfill.
    const backfill = await call('POST', jobs(), { key: ctx.adminKey, body: { kind: 'backfill', endpointId, since } });
    expect(backfill.status, backfill.text).toBe(202);
    expect(backfill.body).toMatchObject({ kind: 'backfill', total: 0 });

    await runQueuedJobs(ctx.db.url);
    const done = await call('GET', `${jobs()}/${replay.body.id}`, { key: ctx.adminKey });
    expect(done.body).toMatchObject({ state: 'succeeded', total: 4, processed: 4 });
    expect(done.body.startedAt).not.toBeNull();
    expect(done.body.finishedAt).not.toBeNull();
    // The recover job queued behind it ran on the same rows after the replay: pending with 8 attempts,
    // they are "retrying", which is failed, so it made them due again; it acts on rows as they are when
    // their batch runs, among those created before the job.
    expect((await call('GET', `${jobs()}/${recover.body.id}`, { key: ctx.adminKey })).body).toMatchObject({
      state: 'succeeded',
      total: 4,
      processed: 4,
    });
  });

  it('names what is wrong: an unknown kind, a missing field, a bad filter (422); an unknown endpoint (404)', async () => {
    expectError(
      await call('POST', jobs(), { key: ctx.adminKey, body: { kind: 'explode' } }),
      422,
      'validation_failed',
      'kind',
    );
    expectError(
      await call('POST', jobs(), { key: ctx.adminKey, body: { kind: 'recover', endpointId } }),
      422,
      'validation_failed',
      'since',
    );
    expectError(
      await call('POST', jobs(), { key: ctx.adminKey, body: { kind: 'replay', filter: { state: 'lost' } } }),
      422,
      'validation_failed',
      'filter.state',
    );
    expectError(
      await call('POST', jobs(), {
        key: ctx.adminKey,
        body: { kind: 'backfill', endpointId: 'ep_nope', since: new Date().toISOString() },
      }),
      404,
      'not_found',
    );
  });
});

describe('GET /apps/{appId}/jobs', () => {
  it("lists the app's jobs newest first, filtered by state or kind, paginated", async () => {
    const all = await call('GET', jobs(), { key: ctx.adminKey });
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.length).toBeGreaterThanOrEqual(3);
    const times = all.body.data.map((job: { createdAt: string }) => job.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const recovers = await call('GET', jobs(), { key: ctx.adminKey, query: { kind: 'recover' } });
    expect(recovers.body.data.every((job: { kind: string }) => job.kind === 'recover')).toBe(true);
    const first = await call('GET', jobs(), { key: ctx.adminKey, query: { limit: 1 } });
    expect(first.body.data).toHaveLength(1);
    const second = await call('GET', jobs(), { key: ctx.adminKey, query: { limit: 1, cursor: first.body.nextCursor } });
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
    expectError(
      await call('GET', jobs(), { key: ctx.adminKey, query: { state: 'done' } }),
      400,
      'invalid_query',
      'state',
    );
  });
});

describe('POST /apps/{appId}/jobs/{jobId}/cancel', () => {
  it('cancels a queued job (the workers then skip it) and refuses a finished one (409)', async () => {
    const created = await call('POST', jobs(), {
      key: ctx.adminKey,
      body: { kind: 'replay', filter: { state: 'succeeded' } },
    });
    const cancelled = await call('POST', `${jobs()}/${created.body.id}/cancel`, { key: ctx.adminKey });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ state: 'cancelled', processed: 0 });
    await runQueuedJobs(ctx.db.url);
    expect((await call('GET', `${jobs()}/${created.body.id}`, { key: ctx.adminKey })).body).toMatchObject({
      state: 'cancelled',
      processed: 0,
    });
    const { rows } = await ctx.db.pool.query(
      `SELECT state FROM hookline.deliveries WHERE app_id = $1 AND state = 'succeeded'`,
      [appId],
    );
    expect(rows).toHaveLength(1);

    const finished = await call('POST', jobs(), { key: ctx.adminKey, body: { kind: 'replay', filter: {} } });
    await runQueuedJobs(ctx.db.url);
    expectError(await call('POST', `${jobs()}/${finished.body.id}/cancel`, { key: ctx.adminKey }), 409, 'job_finished');
    expectError(await call('POST', `${jobs()}/job_nope/cancel`, { key: ctx.adminKey }), 404, 'not_found');
  });
});

describe('POST /apps/{appId}/endpoints/{endpointId}/backfill', () => {
  it('counts the messages a new endpoint missed (dryRun), then starts the job that sends them', async () => {
    const { rows } = await ctx.db.pool.query<{ id: string }>(
      `SELECT hookline.send($1, 'invoice.paid', jsonb_build_object('n', i)) AS id FROM generate_series(1, 3) AS i`,
      [appId],
    );
    expect(rows).toHaveLength(3);
    // Fanned out to the old endpoint only (no worker runs here): the queue is empty for them.
    await skipFanOut(ctx.db.pool);
    const fresh = (
      await createEndpoint(ctx.db.pool, appId, 'https://example.com/fresh', { eventTypes: ['invoice.paid'] })
    ).id;
    const path = `/v1/apps/${appId}/endpoints/${fresh}/backfill`;
    const since = new Date(Date.now() - 3600e3).toISOString();
    const dryRun = await call('POST', path, { key: ctx.adminKey, body: { since, dryRun: true } });
    expect(dryRun.status, dryRun.text).toBe(200);
    // The 3 messages sent now plus the fixture's 5 (all invoice.paid, none delivered to this endpoint).
    expect(dryRun.body).toEqual({ matched: 8 });
    const started = await call('POST', path, { key: ctx.adminKey, body: { since } });
    expect(started.body.job).toMatchObject({ kind: 'backfill', total: 8, params: { endpointId: fresh, since } });
    await runQueuedJobs(ctx.db.url);
    expect((await call('GET', `${jobs()}/${started.body.job.id}`, { key: ctx.adminKey })).body).toMatchObject({
      state: 'succeeded',
      processed: 8,
    });
    const created = await ctx.db.pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM hookline.deliveries WHERE endpoint_id = $1 AND state = 'pending'`,
      [fresh],
    );
    expect(created.rows[0]!.count).toBe(8);
    // A second backfill finds nothing left to send.
    expect((await call('POST', path, { key: ctx.adminKey, body: { since, dryRun: true } })).body).toEqual({
      matched: 0,
    });
    expectError(
      await call('POST', path, { key: ctx.adminKey, body: { since: 'yesterday' } }),
      422,
      'validation_failed',
      'since',
    );
  });
});

describe('jobs of another app', () => {
  it('an app-limited key does not see, list or cancel them', async () => {
    const other = await createApp(ctx.db.pool, 'other');
    const keyOfOther = await appLimitedKey(other);
    const mine = await call('POST', jobs(), { key: ctx.adminKey, body: { kind: 'replay', filter: {} } });
    expect((await call('GET', `${jobs()}/${mine.body.id}`, { key: keyOfOther })).status).toBe(404);
    expect((await call('POST', `${jobs()}/${mine.body.id}/cancel`, { key: keyOfOther })).status).toBe(404);
    expect((await call('GET', jobs(), { key: keyOfOther })).status).toBe(404);
    // Under its own app's path, the other app's job id does not exist either.
    expect((await call('GET', `/v1/apps/${other}/jobs/${mine.body.id}`, { key: keyOfOther })).status).toBe(404);
    expect((await call('POST', `/v1/apps/${other}/jobs/${mine.body.id}/cancel`, { key: keyOfOther })).status).toBe(404);
    expect((await call('GET', `/v1/apps/${other}/jobs`, { key: keyOfOther })).body.data).toEqual([]);
    expect((await call('GET', `${jobs()}/${mine.body.id}`, { key: ctx.adminKey })).body.state).toBe('queued');
  });
});
