// Hourly rollups: the worker writes them in the same statement as the per-minute ones, the migration
// derives them from existing per-minute history, and the stats answer the same numbers whether a range
// is read from hours (with minutes at its partial ends) or from minutes alone.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { sendEvent } from '../support/deliveries';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';
import { call, setUpApiTest, type ApiTestContext } from './support/api';

let ctx: ApiTestContext;
let receiver: Receiver;

beforeAll(async () => {
  ctx = await setUpApiTest();
  // Every third request fails with a 503, the others succeed after a few milliseconds.
  let requests = 0;
  receiver = await startReceiver((_request, response) => {
    requests++;
    setTimeout(() => response.writeHead(requests % 3 === 0 ? 503 : 200).end('ok'), requests % 7);
  });
});

afterAll(async () => {
  await stopTestWorkers();
  await receiver.close();
});

// The per-minute rollups summed by the hour (histograms bucket by bucket), one comparable row per key.
async function minutesByHour() {
  const { rows } = await ctx.db.pool.query(`
    WITH per_minute AS (
      SELECT date_trunc('hour', minute) AS hour, app_id, endpoint_id, outcome, error_class, status_code,
             attempts, duration_ms_sum, latency_buckets
        FROM hookline.stats_minutely
    ), sums AS (
      SELECT hour, app_id, endpoint_id, outcome, error_class, status_code,
             sum(attempts)::int AS attempts, round(sum(duration_ms_sum)::numeric, 3) AS duration
        FROM per_minute GROUP BY 1, 2, 3, 4, 5, 6
    ), histograms AS (
      SELECT hour, app_id, endpoint_id, outcome, error_class, status_code, array_agg(n ORDER BY i) AS buckets
        FROM (SELECT hour, app_id, endpoint_id, outcome, error_class, status_code, i, sum(latency_buckets[i])::int AS n
                FROM per_minute, generate_series(1, 15) AS i
               GROUP BY 1, 2, 3, 4, 5, 6, 7) AS per_bucket
       GROUP BY 1, 2, 3, 4, 5, 6
    )
    SELECT * FROM sums JOIN histograms USING (hour, app_id, endpoint_id, outcome, error_class, status_code)
     ORDER BY 1, 2, 3, 4, 5, 6`);
  return rows;
}
async function hours() {
  const { rows } = await ctx.db.pool.query(
    `SELECT hour, app_id, endpoint_id, outcome, error_class, status_code, attempts::int AS attempts,
            round(duration_ms_sum::numeric, 3) AS duration, latency_buckets::int[] AS buckets
       FROM hookline.stats_hourly ORDER BY 1, 2, 3, 4, 5, 6`,
  );
  return rows;
}

describe('hourly rollups', () => {
  it('are written by the worker with the per-minute ones, and agree with them', async () => {
    const appId = await createApp(ctx.db.pool, 'Hourly');
    await createEventType(ctx.db.pool, appId, 'tick');
    await createEndpoint(ctx.db.pool, appId, `${receiver.url}/a`);
    await createEndpoint(ctx.db.pool, appId, `${receiver.url}/b`);
    await startTestWorker(ctx.db.url, { retrySchedule: [0] });
    const messages: string[] = [];
    for (let index = 0; index < 30; index++) messages.push(await sendEvent(ctx.db.pool, appId, 'tick', { index }));
    await waitUntil(
      async () => {
        const { rows } = await ctx.db.pool.query<{ finished: number }>(
          `SELECT count(*)::int AS finished FROM hookline.deliveries WHERE state IN ('succeeded', 'dead')`,
        );
        return rows[0]!.finished === 2 * messages.length ? true : null;
      },
      { timeoutMs: 15_000, what: 'all 60 deliveries to finish' },
    );
    await stopTestWorkers();

    const written = await hours();
    expect(written.reduce((sum, row) => sum + Number(row.attempts), 0)).toBe(60);
    expect(written.some((row) => row.outcome === 'failed' && row.status_code === 503)).toBe(true);
    expect(written).toEqual(await minutesByHour());
  });

  it('are derived from existing per-minute history by the migration', async () => {
    // Minutes spread over 30 hours for two endpoints, then the hourly table rebuilt by the migration's
    // own backfill statement.
    const appId = await createApp(ctx.db.pool, 'History');
    const endpoints = [
      (await createEndpoint(ctx.db.pool, appId, 'https://example.com/1')).id,
      (await createEndpoint(ctx.db.pool, appId, 'https://example.com/2')).id,
    ];
    await ctx.db.pool.query(
      `INSERT INTO hookline.stats_minutely (minute, app_id, endpoint_id, outcome, error_class, status_code,
                                            attempts, duration_ms_sum, latency_buckets)
       SELECT date_trunc('minute', now()) - make_interval(mins => g * 7), $1, ($2::text[])[1 + g % 2],
              CASE WHEN g % 5 = 0 THEN 'failed' ELSE 'succeeded' END,
              CASE WHEN g % 5 = 0 THEN 'timeout' ELSE '' END, CASE WHEN g % 5 = 0 THEN 0 ELSE 200 END,
              1 + g % 4, 10.5 * (1 + g % 4),
              ARRAY(SELECT CASE WHEN i = g % 15 THEN 1 + g % 4 ELSE 0 END FROM generate_series(0, 14) AS i)
         FROM generate_series(1, 257) AS g`,
      [appId, endpoints],
    );
    const migration = readFileSync(
      resolve(import.meta.dirname, '../../prisma/migrations/20261122160000_stats_hourly/migration.sql'),
      'utf8',
    );
    const backfill = migration.slice(migration.indexOf('-- History recorded before this migration'));
    await ctx.db.pool.query('TRUNCATE hookline.stats_hourly');
    await ctx.db.pool.query(backfill);
    expect(await hours()).toEqual(await minutesByHour());
  });

  it('answer the same stats as the minutes alone, for a range with partial hours at both ends', async () => {
    const to = new Date();
    const from = new Date(to.getTime() - 26 * 3_600_000 - 17 * 60_000);
    const query = { from: from.toISOString(), to: to.toISOString() };
    // Whole-hour buckets read hours (and minutes at the ends); half-hour buckets read minutes only.
    const byHours = await call('GET', '/v1/stats', { key: ctx.adminKey, query: { ...query, bucketSeconds: 3600 } });
    const byMinutes = await call('GET', '/v1/stats', { key: ctx.adminKey, query: { ...query, bucketSeconds: 1800 } });
    expect(byHours.status).toBe(200);
    expect(byMinutes.status).toBe(200);
    type Stats = {
      totals: { attempts: number };
      series: { time: string; succeeded: number; failed: number }[];
    } & Record<string, unknown>;
    const hourly = byHours.body as Stats;
    const halfHourly = byMinutes.body as Stats;
    expect(hourly.totals.attempts).toBeGreaterThan(300);
    for (const field of ['totals', 'errorClasses', 'statusCodes', 'worstEndpoints', 'queue']) {
      expect(hourly[field], field).toEqual(halfHourly[field]);
    }
    // Each hour of the series is its two half hours.
    const halves = new Map(halfHourly.series.map((point) => [point.time, point]));
    for (const point of hourly.series) {
      const first = halves.get(point.time);
      const second = halves.get(new Date(Date.parse(point.time) + 1_800_000).toISOString());
      expect(point.succeeded).toBe((first?.succeeded ?? 0) + (second?.succeeded ?? 0));
      expect(point.failed).toBe((first?.failed ?? 0) + (second?.failed ?? 0));
    }
    // And the whole hours really came from stats_hourly: without it only the partial hours remain.
    await ctx.db.pool.query('TRUNCATE hookline.stats_hourly');
    const withoutHours = await call('GET', '/v1/stats', { key: ctx.adminKey, query: { ...query, bucketSeconds: 3600 } });
    expect((withoutHours.body as Stats).totals.attempts).toBeLessThan(hourly.totals.attempts / 4);
  });
});
