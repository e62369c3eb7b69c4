// The dashboard's overview numbers. Everything over time comes from the per-minute and hourly rollups
// (hookline.stats_minutely, hookline.stats_hourly) and the once-a-minute queue samples, never from
// attempts: a day of 100 endpoints is ~5 k hourly rows against millions of attempts.
// Only the current queue is counted live from deliveries (partial indexes keep that cheap).
import { getPrisma } from '../db';
import { badRequest, notFound } from '../errors';
import { Prisma } from '../generated/prisma/client';
import { chooseBucketSeconds, MAX_POINTS } from './choose-bucket-seconds';
import { latencyPercentile } from './latency-percentile';

export interface StatsInput {
  appId?: string;
  endpointId?: string;
  from?: Date;
  to?: Date;
  bucketSeconds?: number;
}

type QueueState = 'pending' | 'scheduled' | 'delivering' | 'dead';
const QUEUE_STATES: QueueState[] = ['pending', 'scheduled', 'delivering', 'dead'];
// hookline.latency_bucket_bounds_ms() has 14 bounds: 15 buckets, the last one "slower than 30 s".
const HISTOGRAM_BUCKETS = 15;

export async function getStats(input: StatsInput) {
  const prisma = getPrisma();
  const to = input.to ?? new Date();
  const from = input.from ?? new Date(to.getTime() - 3_600_000);
  const rangeSeconds = (to.getTime() - from.getTime()) / 1000;
  if (!(rangeSeconds > 0))
    throw badRequest('invalid_query', 'from must be before to', [{ path: 'from', message: 'must be before to' }]);
  const bucketSeconds = input.bucketSeconds ?? chooseBucketSeconds(rangeSeconds);
  if (rangeSeconds / bucketSeconds > MAX_POINTS) {
    const message = `the range holds more than ${MAX_POINTS} buckets of ${bucketSeconds} s; choose a larger bucketSeconds`;
    throw badRequest('invalid_query', `bucketSeconds: ${message}`, [{ path: 'bucketSeconds', message }]);
  }

  let appId = input.appId;
  if (input.endpointId) {
    const endpoint = await prisma.endpoint.findFirst({ where: { id: input.endpointId, ...(appId ? { appId } : {}) } });
    if (!endpoint) throw notFound('Endpoint', input.endpointId);
    appId = endpoint.appId;
  } else if (appId) {
    const app = await prisma.app.findUnique({ where: { id: appId }, select: { id: true } });
    if (!app) throw notFound('App', appId);
  }

  // The rollups of the range as one row source `s` (minute, app_id, endpoint_id, outcome, error_class,
  // status_code, attempts, latency_buckets). With whole-hour buckets, the whole hours inside the range
  // come from stats_hourly and only the partial hours at its ends from stats_minutely: the same sums
  // from ~60 times fewer rows (see migration 20261122160000_stats_hourly).
  const fromMinute = new Date(Math.floor(from.getTime() / 60_000) * 60_000);
  const firstWholeHour = new Date(Math.ceil(fromMinute.getTime() / 3_600_000) * 3_600_000);
  const endOfWholeHours = new Date(Math.floor(to.getTime() / 3_600_000) * 3_600_000);
  const scope = (table: Prisma.Sql) => Prisma.sql`
    ${appId ? Prisma.sql`AND ${table}.app_id = ${appId}` : Prisma.empty}
    ${input.endpointId ? Prisma.sql`AND ${table}.endpoint_id = ${input.endpointId}` : Prisma.empty}`;
  const columns = Prisma.sql`app_id, endpoint_id, outcome, error_class, status_code, attempts, latency_buckets`;
  const rollups =
    bucketSeconds % 3600 === 0 && firstWholeHour < endOfWholeHours
      ? Prisma.sql`(
          SELECT h.hour AS minute, ${columns} FROM hookline.stats_hourly h
           WHERE h.hour >= ${firstWholeHour}::timestamptz AND h.hour < ${endOfWholeHours}::timestamptz ${scope(Prisma.sql`h`)}
          UNION ALL
          SELECT m.minute, ${columns} FROM hookline.stats_minutely m
           WHERE m.minute >= ${fromMinute}::timestamptz AND m.minute < ${firstWholeHour}::timestamptz ${scope(Prisma.sql`m`)}
          UNION ALL
          SELECT m.minute, ${columns} FROM hookline.stats_minutely m
           WHERE m.minute >= ${endOfWholeHours}::timestamptz AND m.minute < ${to}::timestamptz ${scope(Prisma.sql`m`)}
        ) s`
      : Prisma.sql`(
          SELECT m.minute, ${columns} FROM hookline.stats_minutely m
           WHERE m.minute >= ${fromMinute}::timestamptz AND m.minute < ${to}::timestamptz ${scope(Prisma.sql`m`)}
        ) s`;
  const bucketOf = (column: Prisma.Sql) =>
    Prisma.sql`(floor(extract(epoch FROM ${column}) / ${bucketSeconds}::int) * ${bucketSeconds}::int)::float8`;

  // Throughput and latency in one pass: per bucket and outcome, the attempts and the histogram summed
  // bucket by bucket (an unnest of every row's 15 buckets took 1.4 s over a week of hourly rollups
  // for 100 endpoints; element sums take 0.16 s).
  const histogramSums = Prisma.raw(
    Array.from({ length: HISTOGRAM_BUCKETS }, (_, index) => `sum(s.latency_buckets[${index + 1}])`).join(', '),
  );
  const [boundsRows, outcomeRows, errorRows, statusRows, worstRows, queueRows, sampleRows] =
    await Promise.all([
      prisma.$queryRaw<{ bounds: number[] }[]>`SELECT hookline.latency_bucket_bounds_ms() AS bounds`,
      prisma.$queryRaw<{ t: number; outcome: string; attempts: number; histogram: number[] }[]>`
      SELECT ${bucketOf(Prisma.sql`s.minute`)} AS t, s.outcome, sum(s.attempts)::float8 AS attempts,
             ARRAY[${histogramSums}]::float8[] AS histogram
        FROM ${rollups} GROUP BY 1, 2`,
      prisma.$queryRaw<{ error_class: string; count: number }[]>`
      SELECT s.error_class, sum(s.attempts)::float8 AS count FROM ${rollups}
       WHERE s.outcome = 'failed' AND s.error_class <> ''
       GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 50`,
      prisma.$queryRaw<{ status_code: number; count: number }[]>`
      SELECT s.status_code, sum(s.attempts)::float8 AS count FROM ${rollups}
       WHERE s.status_code <> 0
       GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 50`,
      prisma.$queryRaw<
        {
          endpoint_id: string;
          app_id: string;
          url: string;
          last_error_class: string | null;
          attempts: number;
          failed: number;
        }[]
      >`
      SELECT s.endpoint_id, s.app_id, e.url, e.last_error_class,
             sum(s.attempts)::float8 AS attempts,
             coalesce(sum(s.attempts) FILTER (WHERE s.outcome = 'failed'), 0)::float8 AS failed
        FROM ${rollups} JOIN hookline.endpoints e ON e.id = s.endpoint_id
       GROUP BY 1, 2, 3, 4
      HAVING sum(s.attempts) FILTER (WHERE s.outcome = 'failed') > 0
       ORDER BY sum(s.attempts) FILTER (WHERE s.outcome = 'failed')::float8 / sum(s.attempts) DESC, 6 DESC, 1
       LIMIT 10`,
      prisma.$queryRaw<Record<QueueState, number>[]>`
      SELECT count(*) FILTER (WHERE d.state = 'pending' AND d.next_attempt_at <= now())::float8 AS pending,
             count(*) FILTER (WHERE d.state = 'pending' AND d.next_attempt_at > now())::float8 AS scheduled,
             count(*) FILTER (WHERE d.state = 'delivering')::float8 AS delivering,
             count(*) FILTER (WHERE d.state = 'dead')::float8 AS dead
        FROM hookline.deliveries d
       WHERE d.state IN ('pending', 'delivering', 'dead')
         ${appId ? Prisma.sql`AND d.app_id = ${appId}` : Prisma.empty}
         ${input.endpointId ? Prisma.sql`AND d.endpoint_id = ${input.endpointId}` : Prisma.empty}`,
      // Samples are per app; per bucket, the last sample of each app and state, summed over apps. There
      // is no per-endpoint history, so an endpoint's series has no queue points rather than its app's.
      input.endpointId
        ? Promise.resolve([])
        : prisma.$queryRaw<{ t: number; state: QueueState; count: number }[]>`
      SELECT t, state, sum(count)::float8 AS count FROM (
        SELECT DISTINCT ON (app_id, state, t) t, app_id, state, count FROM (
          SELECT ${bucketOf(Prisma.sql`q.sampled_at`)} AS t, q.app_id, q.state, q.count, q.sampled_at
            FROM hookline.queue_depth_samples q
           WHERE q.sampled_at >= ${from}::timestamptz AND q.sampled_at < ${to}::timestamptz
             ${appId ? Prisma.sql`AND q.app_id = ${appId}` : Prisma.empty}
        ) AS bucketed
         ORDER BY app_id, state, t, sampled_at DESC
      ) AS last_samples GROUP BY 1, 2`,
    ]);

  const bounds = boundsRows[0]?.bounds ?? [];
  const bucketCount = bounds.length + 1;
  const firstBucket = Math.floor(from.getTime() / 1000 / bucketSeconds) * bucketSeconds;
  const points = new Map<number, ReturnType<typeof emptyPoint>>();
  const emptyPoint = () => ({
    succeeded: 0,
    failed: 0,
    histogram: new Array<number>(bucketCount).fill(0),
    queue: {} as Partial<Record<QueueState, number>>,
  });
  for (let t = firstBucket; t < to.getTime() / 1000; t += bucketSeconds) points.set(t, emptyPoint());
  const pointAt = (t: number) => points.get(t) ?? points.set(t, emptyPoint()).get(t)!;

  if (bucketCount !== HISTOGRAM_BUCKETS) {
    throw new Error(`hookline.latency_bucket_bounds_ms() has ${bounds.length} bounds; lib/stats expects ${HISTOGRAM_BUCKETS - 1}`);
  }
  const totalHistogram = new Array<number>(bucketCount).fill(0);
  for (const row of outcomeRows) {
    const point = pointAt(row.t);
    if (row.outcome === 'succeeded') point.succeeded += row.attempts;
    else point.failed += row.attempts;
    row.histogram.forEach((count, index) => {
      point.histogram[index]! += count ?? 0;
      totalHistogram[index]! += count ?? 0;
    });
  }
  for (const row of sampleRows) pointAt(row.t).queue[row.state] = row.count;

  const series = [...points.entries()]
    .sort(([a], [b]) => a - b)
    .map(([t, point]) => ({
      time: new Date(t * 1000),
      succeeded: point.succeeded,
      failed: point.failed,
      p50: latencyPercentile(point.histogram, bounds, 0.5),
      p95: latencyPercentile(point.histogram, bounds, 0.95),
      p99: latencyPercentile(point.histogram, bounds, 0.99),
      ...Object.fromEntries(QUEUE_STATES.map((state) => [state, point.queue[state] ?? null])),
    })) as {
    time: Date;
    succeeded: number;
    failed: number;
    p50: number | null;
    p95: number | null;
    p99: number | null;
    pending: number | null;
    scheduled: number | null;
    delivering: number | null;
    dead: number | null;
  }[];

  const succeeded = series.reduce((sum, point) => sum + point.succeeded, 0);
  const failed = series.reduce((sum, point) => sum + point.failed, 0);
  const attempts = succeeded + failed;
  const queue = queueRows[0] ?? { pending: 0, scheduled: 0, delivering: 0, dead: 0 };
  return {
    from,
    to,
    bucketSeconds,
    queue: { pending: queue.pending, scheduled: queue.scheduled, delivering: queue.delivering, dead: queue.dead },
    totals: {
      attempts,
      succeeded,
      failed,
      successRate: attempts > 0 ? succeeded / attempts : null,
      deliveriesPerSecond: attempts / rangeSeconds,
      latencyMs: {
        p50: latencyPercentile(totalHistogram, bounds, 0.5),
        p95: latencyPercentile(totalHistogram, bounds, 0.95),
        p99: latencyPercentile(totalHistogram, bounds, 0.99),
      },
    },
    series,
    errorClasses: errorRows.map((row) => ({ errorClass: row.error_class, count: row.count })),
    statusCodes: statusRows.map((row) => ({ statusCode: row.status_code, count: row.count })),
    worstEndpoints: worstRows.map((row) => ({
      endpointId: row.endpoint_id,
      appId: row.app_id,
      url: row.url,
      attempts: row.attempts,
      failed: row.failed,
      successRate: row.attempts > 0 ? (row.attempts - row.failed) / row.attempts : null,
      lastErrorClass: row.last_error_class,
    })),
  };
}
