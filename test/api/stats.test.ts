// GET /api/v1/stats: queue depth by state, throughput, success rate, latency percentiles and the
// breakdowns by error class and status code, over a time range and bucket size. The rollups and
// queue samples the worker writes are inserted here with SQL, so the expected numbers are known.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, createEndpoint } from '../support/fixtures';
import { appLimitedKey, call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';
import { insertDelivery } from './support/world';
import { insertRollup as writeRollup } from '../support/rollups';

let ctx: ApiTestContext;
let appA: string;
let appB: string;
let endpointA: string;
let otherEndpointA: string;
let endpointB: string;

// hookline.latency_bucket_bounds_ms(): 1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000;
// 15 buckets, the last one "30 s or slower".
function histogram(counts: Record<number, number>): number[] {
  return Array.from({ length: 15 }, (_, index) => counts[index] ?? 0);
}

function insertRollup(
  minutesAgo: number,
  appId: string,
  endpointId: string,
  outcome: 'succeeded' | 'failed',
  errorClass: string,
  statusCode: number,
  attempts: number,
  latencyBuckets: number[],
) {
  const minute = new Date(Date.now() - minutesAgo * 60_000);
  return writeRollup(ctx.db.pool, {
    minute,
    appId,
    endpointId,
    outcome,
    errorClass,
    statusCode,
    attempts,
    latencyBuckets,
  });
}

beforeAll(async () => {
  ctx = await setUpApiTest();
  appA = await createApp(ctx.db.pool, 'A');
  appB = await createApp(ctx.db.pool, 'B');
  endpointA = (await createEndpoint(ctx.db.pool, appA, 'https://example.com/a')).id;
  otherEndpointA = (await createEndpoint(ctx.db.pool, appA, 'https://example.com/a2')).id;
  endpointB = (await createEndpoint(ctx.db.pool, appB, 'https://example.com/b')).id;
  await ctx.db.pool.query(`UPDATE hookline.endpoints SET last_error_class = 'timeout' WHERE id = $1`, [endpointA]);

  // App A, endpoint A: 8 successes of 5-10 ms and 2 HTTP 500s of 500-1000 ms ten minutes ago, 5 timeouts
  // (30 s or slower) five minutes ago. App B: 3 successes. Two days ago: outside every range below.
  await insertRollup(10, appA, endpointA, 'succeeded', '', 200, 8, histogram({ 3: 8 }));
  await insertRollup(10, appA, endpointA, 'failed', 'http_5xx', 500, 2, histogram({ 9: 2 }));
  await insertRollup(5, appA, endpointA, 'failed', 'timeout', 0, 5, histogram({ 14: 5 }));
  await insertRollup(10, appB, endpointB, 'succeeded', '', 204, 3, histogram({ 0: 3 }));
  await insertRollup(2 * 24 * 60, appA, endpointA, 'failed', 'dns', 0, 1000, histogram({ 0: 1000 }));

  // The queue now: A has one due, one scheduled retry, one in flight and two dead (one per endpoint); B one due.
  await insertDelivery(ctx.db.pool, { appId: appA, endpointId: endpointA, state: 'pending' });
  await insertDelivery(ctx.db.pool, {
    appId: appA,
    endpointId: endpointA,
    state: 'pending',
    attemptCount: 1,
    nextAttemptInSeconds: 600,
  });
  await insertDelivery(ctx.db.pool, { appId: appA, endpointId: endpointA, state: 'delivering', attemptCount: 1 });
  await insertDelivery(ctx.db.pool, { appId: appA, endpointId: endpointA, state: 'dead', attemptCount: 8 });
  await insertDelivery(ctx.db.pool, { appId: appA, endpointId: otherEndpointA, state: 'dead', attemptCount: 8 });
  await insertDelivery(ctx.db.pool, { appId: appA, endpointId: endpointA, state: 'succeeded', attemptCount: 1 });
  await insertDelivery(ctx.db.pool, { appId: appB, endpointId: endpointB, state: 'pending' });

  // Queue samples of app A, in the 5-minute bucket that began 20 minutes before the current one: two of
  // pending (the later one counts) and one of dead.
  await ctx.db.pool.query(
    `WITH bucket AS (SELECT to_timestamp(floor(extract(epoch FROM now()) / 300) * 300 - 1200) AS start)
     INSERT INTO hookline.queue_depth_samples (sampled_at, app_id, state, count)
     SELECT start + offset_by, $1, state, count FROM bucket,
       (VALUES (interval '10 seconds', 'pending', 4), (interval '70 seconds', 'pending', 6), (interval '70 seconds', 'dead', 2))
         AS samples (offset_by, state, count)`,
    [appA],
  );
});

const stats = (query: Record<string, string | number>, key = ctx.adminKey) => call('GET', '/v1/stats', { key, query });

describe('GET /stats', () => {
  it('sums the rollups of one app: totals, success rate, throughput, percentiles and breakdowns', async () => {
    const to = new Date();
    const from = new Date(to.getTime() - 3_600_000);
    const response = await stats({ appId: appA, from: from.toISOString(), to: to.toISOString(), bucketSeconds: 300 });
    expect(response.status, response.text).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({ from: from.toISOString(), to: to.toISOString(), bucketSeconds: 300 });
    expect(body.totals).toEqual({
      attempts: 15,
      succeeded: 8,
      failed: 7,
      successRate: 8 / 15,
      // Over the span holding attempts (the minute 10 minutes ago to the end of the one 5 minutes ago:
      // 6 minutes), not the hour asked for; retries count. No attempts in the last complete minute.
      attemptsPerSecond: 15 / 360,
      rateSpan: { from: expect.any(String), to: expect.any(String), seconds: 360 },
      lastMinute: { from: expect.any(String), to: expect.any(String), attempts: 0, attemptsPerSecond: 0 },
      // p50: the 7.5th of 15 attempts, 7.5/8 of the way through the 5-10 ms bucket; p95 and p99 fall in
      // the open-ended last bucket, reported as its lower bound.
      latencyMs: { p50: 5 + 5 * (7.5 / 8), p95: 30_000, p99: 30_000 },
    });
    // Shares of the failed attempts with a class, and of the attempts that got a response.
    expect(body.errorClasses).toEqual([
      { errorClass: 'timeout', count: 5, share: 5 / 7 },
      { errorClass: 'http_5xx', count: 2, share: 2 / 7 },
    ]);
    expect(body.statusCodes).toEqual([
      { statusCode: 200, count: 8, share: 0.8 },
      { statusCode: 500, count: 2, share: 0.2 },
    ]);
    expect(body.worstEndpoints).toEqual([
      {
        endpointId: endpointA,
        appId: appA,
        url: 'https://example.com/a',
        attempts: 15,
        failed: 7,
        successRate: 8 / 15,
        lastErrorClass: 'timeout',
      },
    ]);
    // In the delivery vocabulary: never tried is waiting, tried and pending again is retrying.
    // What the waiting and retrying wait for: the due one for a worker, the retry for its time.
    expect(body.queue).toEqual({
      waiting: 1,
      retrying: 1,
      delivering: 1,
      dead: 2,
      deadCapped: false,
      liveCapped: false,
      waitingFor: { worker: 1, circuit: 0, endpointEnabled: 0, retryTime: 1 },
    });
  });

  it('cuts the range into buckets of bucketSeconds whose sums are the totals', async () => {
    const to = new Date();
    const from = new Date(to.getTime() - 3_600_000);
    const { body } = await stats({ appId: appA, from: from.toISOString(), to: to.toISOString(), bucketSeconds: 300 });
    expect(body.series.length).toBeGreaterThanOrEqual(12);
    expect(body.series.length).toBeLessThanOrEqual(13);
    const times = body.series.map((point: { time: string }) => Date.parse(point.time));
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(300_000);
    expect(times[0] % 300_000).toBe(0);
    const sum = (field: string) =>
      body.series.reduce((total: number, point: Record<string, number>) => total + point[field]!, 0);
    expect(sum('succeeded')).toBe(8);
    expect(sum('failed')).toBe(7);
    const withAttempts = body.series.filter(
      (point: { succeeded: number; failed: number }) => point.succeeded + point.failed > 0,
    );
    expect(withAttempts.length).toBeGreaterThanOrEqual(1);
    expect(withAttempts.length).toBeLessThanOrEqual(2);
    // Queue samples: the last sample of a bucket counts, and in it a state without a row had nothing
    // queued (the sample's 'pending' is waiting); buckets without a sample stay null. The latest point
    // is the live queue, the same numbers as `queue`.
    type QueuePoint = {
      waiting: number | null;
      retrying: number | null;
      delivering: number | null;
      dead: number | null;
    };
    const sampled = body.series.filter((point: QueuePoint) => point.waiting !== null);
    expect(sampled.map((point: QueuePoint) => [point.waiting, point.retrying, point.delivering, point.dead])).toEqual([
      [6, 0, 0, 2],
      [1, 1, 1, 2],
    ]);
    const { waiting, retrying, delivering, dead } = body.queue;
    expect(body.series.at(-1)).toMatchObject({ waiting, retrying, delivering, dead });
    // The error and status breakdowns per bucket add up to the totals.
    const perBucket = (field: 'errorClasses' | 'statusCodes') =>
      body.series.reduce((totals: Record<string, number>, point: Record<string, Record<string, number>>) => {
        for (const [key, count] of Object.entries(point[field]!)) totals[key] = (totals[key] ?? 0) + count;
        return totals;
      }, {});
    expect(perBucket('errorClasses')).toEqual({ timeout: 5, http_5xx: 2 });
    expect(perBucket('statusCodes')).toEqual({ 200: 8, 500: 2 });
  });

  it('leaves the latest point to the samples when the range ends in the past', async () => {
    const to = new Date(Date.now() - 15 * 60_000);
    const from = new Date(to.getTime() - 3_600_000);
    const { body } = await stats({ appId: appA, from: from.toISOString(), to: to.toISOString(), bucketSeconds: 300 });
    expect(body.series.filter((point: { waiting: number | null }) => point.waiting !== null)).toHaveLength(1);
    expect(body.series.at(-1).waiting).toBeNull();
  });

  it('chooses a bucket size from the range when none is given', async () => {
    const to = new Date();
    const day = await stats({
      appId: appA,
      from: new Date(to.getTime() - 86_400_000).toISOString(),
      to: to.toISOString(),
    });
    // Whole hours past six hours of range, so the hourly rollups serve it.
    expect(day.body.bucketSeconds).toBe(3600);
    const hour = await stats({ appId: appA });
    expect(hour.body.bucketSeconds).toBe(60);
    expect(Date.parse(hour.body.to) - Date.parse(hour.body.from)).toBe(3_600_000);
  });

  it('without appId covers every app, with endpointId only that endpoint', async () => {
    const everything = await stats({});
    expect(everything.body.totals).toMatchObject({ attempts: 18, succeeded: 11, failed: 7 });
    expect(everything.body.queue).toMatchObject({ waiting: 2, retrying: 1, delivering: 1, dead: 2 });
    expect(everything.body.statusCodes).toEqual([
      { statusCode: 200, count: 8, share: 8 / 13 },
      { statusCode: 204, count: 3, share: 3 / 13 },
      { statusCode: 500, count: 2, share: 2 / 13 },
    ]);

    const endpoint = await stats({ endpointId: otherEndpointA });
    expect(endpoint.status, endpoint.text).toBe(200);
    expect(endpoint.body.totals).toMatchObject({
      attempts: 0,
      successRate: null,
      latencyMs: { p50: null, p95: null, p99: null },
    });
    expect(endpoint.body.queue).toMatchObject({ waiting: 0, retrying: 0, delivering: 0, dead: 1 });
    // Queue samples are per app; an endpoint's series does not borrow its app's.
    expect(endpoint.body.series.every((point: { waiting: number | null }) => point.waiting === null)).toBe(true);
  });

  it('holds an app-limited key to its own app', async () => {
    const keyOfB = await appLimitedKey(appB);
    const own = await stats({}, keyOfB);
    expect(own.status).toBe(200);
    expect(own.body.totals).toMatchObject({ attempts: 3, succeeded: 3, failed: 0, successRate: 1 });
    expect(own.body.queue).toMatchObject({ waiting: 1, retrying: 0, delivering: 0, dead: 0 });
    expectError(await stats({ appId: appA }, keyOfB), 404, 'not_found');
    expectError(await stats({ endpointId: endpointA }, keyOfB), 404, 'not_found');
  });

  it.each([
    [
      'from after to',
      () => ({ from: new Date().toISOString(), to: new Date(Date.now() - 60_000).toISOString() }),
      'from',
    ],
    ['from equal to to', () => ({ from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }), 'from'],
    ['a bucket that is not a multiple of 60', () => ({ bucketSeconds: 90 }), 'bucketSeconds'],
    ['a bucket under a minute', () => ({ bucketSeconds: 30 }), 'bucketSeconds'],
    ['a bucket over a day', () => ({ bucketSeconds: 86_460 }), 'bucketSeconds'],
    [
      'more than 1500 buckets',
      () => ({ from: '2026-01-01T00:00:00Z', to: '2026-03-01T00:00:00Z', bucketSeconds: 60 }),
      'bucketSeconds',
    ],
    ['a malformed time', () => ({ to: 'now' }), 'to'],
    ['year 0', () => ({ from: '0000-01-01T00:00:00Z', to: '0000-01-02T00:00:00Z' }), 'from'],
  ])('answers 400 for %s, naming the parameter', async (_label, query, field) => {
    expectError(await stats(query()), 400, 'invalid_query', field);
  });

  it('rates the last complete minute on its own', async () => {
    const app = await createApp(ctx.db.pool, 'last minute');
    const endpoint = (await createEndpoint(ctx.db.pool, app, 'https://example.com/last-minute')).id;
    const lastMinute = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
    await writeRollup(ctx.db.pool, {
      minute: lastMinute,
      appId: app,
      endpointId: endpoint,
      outcome: 'succeeded',
      errorClass: '',
      statusCode: 200,
      attempts: 420,
      latencyBuckets: histogram({ 3: 420 }),
    });
    const { body } = await stats({ appId: app });
    expect(body.totals.lastMinute).toMatchObject({
      from: lastMinute.toISOString(),
      attempts: 420,
      attemptsPerSecond: 7,
    });
    // The span starts at that minute: 420 attempts over at most two minutes, not over the hour.
    expect(body.totals.attemptsPerSecond).toBeGreaterThanOrEqual(3.5);
    expect(body.totals.rateSpan.from).toBe(lastMinute.toISOString());
  });

  it('tells what waiting deliveries wait for: a worker, an open circuit, a disabled endpoint, a retry time', async () => {
    const app = await createApp(ctx.db.pool, 'held');
    const healthy = (await createEndpoint(ctx.db.pool, app, 'https://example.com/held/ok')).id;
    const tripped = (await createEndpoint(ctx.db.pool, app, 'https://example.com/held/open')).id;
    const disabled = (await createEndpoint(ctx.db.pool, app, 'https://example.com/held/off')).id;
    await ctx.db.pool.query(
      `UPDATE hookline.endpoints SET circuit_state = 'open', circuit_open_until = now() + interval '1 minute' WHERE id = $1`,
      [tripped],
    );
    await ctx.db.pool.query(`UPDATE hookline.endpoints SET enabled = false WHERE id = $1`, [disabled]);
    // Never tried and due: one per endpoint, and two more behind the open circuit; one retry due later.
    for (const endpointId of [healthy, tripped, tripped, tripped, disabled])
      await insertDelivery(ctx.db.pool, { appId: app, endpointId, state: 'pending' });
    await insertDelivery(ctx.db.pool, {
      appId: app,
      endpointId: healthy,
      state: 'pending',
      attemptCount: 2,
      nextAttemptInSeconds: 300,
    });
    const { body } = await stats({ appId: app });
    expect(body.queue).toEqual({
      waiting: 5,
      retrying: 1,
      delivering: 0,
      dead: 0,
      deadCapped: false,
      liveCapped: false,
      waitingFor: { worker: 1, circuit: 3, endpointEnabled: 1, retryTime: 1 },
    });
    // The apps list counts the same, now (not at the last once-a-minute sample).
    const list = await call('GET', '/v1/apps', { key: ctx.adminKey, query: { summary: 'true' } });
    const row = list.body.data.find((candidate: { id: string }) => candidate.id === app);
    expect(row.summary).toMatchObject({
      queued: 6,
      queue: { worker: 1, circuit: 3, endpointEnabled: 1, retryTime: 1, delivering: 0 },
    });
  });

  it('answers 404 for an unknown app or endpoint, or an endpoint of another app', async () => {
    expectError(await stats({ appId: 'app_unknown' }), 404, 'not_found');
    expectError(await stats({ endpointId: 'ep_unknown' }), 404, 'not_found');
    expectError(await stats({ appId: appB, endpointId: endpointA }), 404, 'not_found');
  });
});

describe('latency percentiles and the per-attempt deadline', () => {
  // 97 answers of 50-100 ms and 3 timeouts counted in the 10-30 s bucket: p99 interpolated in that
  // bucket is 10 s + 20 s x 2/3 = 23.3 s. Whether that could be true depends on the deadline: no
  // attempt of a 15 s endpoint lasts longer than 15 s. Added last: the tests above count every app.
  it.each([
    [15_000, 15_000, 'cut to a 15 s deadline, where the timeouts are'],
    [60_000, 10_000 + 20_000 * (2 / 3), 'the estimate stands under a 60 s deadline'],
    [5_000, 10_000, 'never below the bucket the attempts were counted in (a deadline lowered since)'],
  ])('deadline %i ms: p99 %d (%s)', async (timeoutMs, p99) => {
    const appId = await createApp(ctx.db.pool, `Deadline ${timeoutMs}`);
    const endpointId = (await createEndpoint(ctx.db.pool, appId, `https://example.com/deadline-${timeoutMs}`)).id;
    await ctx.db.pool.query(`UPDATE hookline.endpoints SET timeout_ms = $2 WHERE id = $1`, [endpointId, timeoutMs]);
    await insertRollup(3, appId, endpointId, 'succeeded', '', 200, 97, histogram({ 6: 97 }));
    await insertRollup(3, appId, endpointId, 'failed', 'timeout', 0, 3, histogram({ 13: 3 }));

    const overview = await stats({ appId });
    expect(overview.status, overview.text).toBe(200);
    // p50 and p95 fall in the 50-100 ms bucket, far below any deadline: untouched.
    const { p50, p95, p99: total } = overview.body.totals.latencyMs;
    expect(p50).toBeCloseTo(50 + 50 * (50 / 97), 6);
    expect(p95).toBeCloseTo(50 + 50 * (95 / 97), 6);
    expect(total).toBeCloseTo(p99, 6);
    const point = overview.body.series.find((entry: { succeeded: number }) => entry.succeeded > 0);
    expect(point.p99).toBeCloseTo(p99, 6);
    // One endpoint's numbers (its page, and the customer portal's) agree.
    const endpoint = await call('GET', `/v1/apps/${appId}/endpoints/${endpointId}/stats`, { key: ctx.adminKey });
    expect(endpoint.status, endpoint.text).toBe(200);
    expect(endpoint.body.totals.latencyMs.p99).toBeCloseTo(p99, 6);
  });

  it("takes the app's deadline, then the deployment's, for an endpoint that sets none", async () => {
    const appId = await createApp(ctx.db.pool, 'Deadline of the app');
    const endpointId = (await createEndpoint(ctx.db.pool, appId, 'https://example.com/deadline-app')).id;
    await insertRollup(3, appId, endpointId, 'succeeded', '', 200, 97, histogram({ 6: 97 }));
    await insertRollup(3, appId, endpointId, 'failed', 'timeout', 0, 3, histogram({ 13: 3 }));
    await ctx.db.pool.query(`UPDATE hookline.apps SET timeout_ms = 12000 WHERE id = $1`, [appId]);
    expect((await stats({ appId })).body.totals.latencyMs.p99).toBe(12_000);
    // The deployment's default (HOOKLINE_DELIVERY_TIMEOUT_MS, 15 s unless set).
    await ctx.db.pool.query(`UPDATE hookline.apps SET timeout_ms = NULL WHERE id = $1`, [appId]);
    const deployment = Number(process.env.HOOKLINE_DELIVERY_TIMEOUT_MS ?? 15_000);
    const expected = Math.min(10_000 + 20_000 * (2 / 3), Math.max(10_000, deployment));
    expect((await stats({ appId })).body.totals.latencyMs.p99).toBeCloseTo(expected, 6);
  });
});
