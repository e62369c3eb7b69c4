// The four rollups (per endpoint and per app, per minute and per hour): the worker writes them in one
// statement and they agree, the migrations derive them from existing per-minute history, the stats
// answer the same numbers whether a range is read from hours (with minutes at its partial ends) or
// from minutes alone, and the overview really reads the per-app ones.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { sendEvent } from '../support/deliveries';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { insertRollup } from '../support/rollups';
import { statements } from '../../worker/statements';

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

type Level = 'endpoint' | 'app';
const keyColumns = (level: Level) =>
  level === 'endpoint'
    ? 'app_id, endpoint_id, outcome, error_class, status_code'
    : 'app_id, outcome, error_class, status_code';

// The per-endpoint minutes summed to a coarser rollup's time unit and key (histograms bucket by bucket,
// independently of the SQL functions the worker uses), one comparable row per key.
async function minutesSummedTo(unit: 'minute' | 'hour', level: Level) {
  const keys = keyColumns(level);
  const { rows } = await ctx.db.pool.query(`
    WITH per_minute AS (
      SELECT date_trunc('${unit}', minute) AS time, ${keys}, attempts, duration_ms_sum, latency_buckets
        FROM hookline.stats_minutely
    ), sums AS (
      SELECT time, ${keys}, sum(attempts)::int AS attempts, round(sum(duration_ms_sum)::numeric, 3) AS duration
        FROM per_minute GROUP BY time, ${keys}
    ), histograms AS (
      SELECT time, ${keys}, array_agg(n ORDER BY i) AS buckets
        FROM (SELECT time, ${keys}, i, sum(latency_buckets[i])::int AS n
                FROM per_minute, generate_series(1, 15) AS i
               GROUP BY time, ${keys}, i) AS per_bucket
       GROUP BY time, ${keys}
    )
    SELECT * FROM sums JOIN histograms USING (time, ${keys}) ORDER BY time, ${keys}`);
  return rows;
}
async function stored(table: string, timeColumn: 'minute' | 'hour', level: Level) {
  const keys = keyColumns(level);
  const { rows } = await ctx.db.pool.query(
    `SELECT ${timeColumn} AS time, ${keys}, attempts::int AS attempts,
            round(duration_ms_sum::numeric, 3) AS duration, latency_buckets::int[] AS buckets
       FROM hookline.${table} ORDER BY time, ${keys}`,
  );
  return rows;
}
const hours = () => stored('stats_hourly', 'hour', 'endpoint');
const appMinutes = () => stored('stats_app_minutely', 'minute', 'app');
const appHours = () => stored('stats_app_hourly', 'hour', 'app');

function migrationPart(name: string): string {
  const migration = readFileSync(resolve(import.meta.dirname, `../../prisma/migrations/${name}/migration.sql`), 'utf8');
  const start = migration.indexOf('-- History recorded before this migration');
  const end = migration.indexOf('\n-- 2.', start);
  return migration.slice(start, end < 0 ? undefined : end);
}

describe('rollups', () => {
  it('are written by the worker in one statement, and agree with each other', async () => {
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
    expect(written).toEqual(await minutesSummedTo('hour', 'endpoint'));
    const perApp = await appMinutes();
    expect(perApp.reduce((sum, row) => sum + Number(row.attempts), 0)).toBe(60);
    expect(perApp).toEqual(await minutesSummedTo('minute', 'app'));
    expect(await appHours()).toEqual(await minutesSummedTo('hour', 'app'));
    // Every row's latency histogram counts each of its attempts once.
    for (const rows of [await stored('stats_minutely', 'minute', 'endpoint'), written, perApp, await appHours()]) {
      for (const row of rows) expect(row.buckets.reduce((sum: number, n: number) => sum + n, 0)).toBe(row.attempts);
    }
  });

  it('are derived from existing per-minute history by the migrations', async () => {
    // Minutes spread over 30 hours for two endpoints, then the hourly and per-app tables rebuilt by the
    // migrations' own backfill statements.
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
    await ctx.db.pool.query('TRUNCATE hookline.stats_hourly, hookline.stats_app_minutely, hookline.stats_app_hourly');
    await ctx.db.pool.query(migrationPart('20261122160000_stats_hourly'));
    await ctx.db.pool.query(migrationPart('20261123130000_overview_rollups'));
    expect(await hours()).toEqual(await minutesSummedTo('hour', 'endpoint'));
    expect(await appMinutes()).toEqual(await minutesSummedTo('minute', 'app'));
    expect(await appHours()).toEqual(await minutesSummedTo('hour', 'app'));
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
      worstEndpoints: { endpointId: string; attempts: number }[];
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
    // The overview reads the per-app rollups, an endpoint's stats the per-endpoint ones: without the
    // per-app hours only the overview's partial hours remain, and the endpoint's numbers do not move.
    const busiest = hourly.worstEndpoints.reduce((most, endpoint) =>
      endpoint.attempts > most.attempts ? endpoint : most,
    );
    const endpointQuery = { ...query, bucketSeconds: 3600, endpointId: busiest.endpointId };
    const endpointBefore = await call('GET', '/v1/stats', { key: ctx.adminKey, query: endpointQuery });
    expect((endpointBefore.body as Stats).totals.attempts).toBeGreaterThan(100);
    await ctx.db.pool.query('TRUNCATE hookline.stats_app_hourly');
    const withoutAppHours = await call('GET', '/v1/stats', {
      key: ctx.adminKey,
      query: { ...query, bucketSeconds: 3600 },
    });
    expect((withoutAppHours.body as Stats).totals.attempts).toBeLessThan(hourly.totals.attempts / 4);
    const endpointAfter = await call('GET', '/v1/stats', { key: ctx.adminKey, query: endpointQuery });
    expect(endpointAfter.body).toEqual(endpointBefore.body);
    // And an endpoint's whole hours come from stats_hourly: without it only the partial hours remain.
    await ctx.db.pool.query('TRUNCATE hookline.stats_hourly');
    const endpointWithoutHours = await call('GET', '/v1/stats', { key: ctx.adminKey, query: endpointQuery });
    expect((endpointWithoutHours.body as Stats).totals.attempts).toBeLessThan(
      (endpointBefore.body as Stats).totals.attempts / 4,
    );
  });
});

describe('stats retention (worker/sql/delete-old-stats.sql)', () => {
  it('deletes rollups of every table and queue samples older than the retention, and nothing newer', async () => {
    const appId = await createApp(ctx.db.pool, 'Retention');
    const endpointId = (await createEndpoint(ctx.db.pool, appId, 'https://example.com/retained')).id;
    const histogram = Array.from({ length: 15 }, (_, index) => (index === 3 ? 1 : 0));
    for (const minute of [new Date(Date.now() - 3 * 86_400_000), new Date(Date.now() - 3_600_000)]) {
      await insertRollup(ctx.db.pool, {
        minute,
        appId,
        endpointId,
        outcome: 'succeeded',
        errorClass: '',
        statusCode: 200,
        attempts: 1,
        latencyBuckets: histogram,
      });
      await ctx.db.pool.query(
        `INSERT INTO hookline.queue_depth_samples (sampled_at, app_id, state, count) VALUES ($1, $2, 'pending', 1)`,
        [minute, appId],
      );
    }
    const tables = ['stats_minutely', 'stats_hourly', 'stats_app_minutely', 'stats_app_hourly', 'queue_depth_samples'];
    const counts = async () =>
      Promise.all(
        tables.map(async (table) => {
          const { rows } = await ctx.db.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM hookline.${table} WHERE app_id = $1`,
            [appId],
          );
          return rows[0]!.n;
        }),
      );
    expect(await counts()).toEqual([2, 2, 2, 2, 2]);
    const { rows } = await statements.deleteOldStats.run(ctx.db.pool, { olderThanMs: 2 * 86_400_000 });
    expect(rows[0]).toMatchObject({ samples: 1 });
    expect(await counts()).toEqual([1, 1, 1, 1, 1]);
  });
});
