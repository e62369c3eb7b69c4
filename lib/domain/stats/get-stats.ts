// The dashboard's overview numbers. Everything over time comes from the per-minute and hourly rollups
// (per app: hookline.stats_app_minutely and _hourly; per endpoint: hookline.stats_minutely and
// _hourly) and the once-a-minute queue samples, never from attempts: a week of one app is ~1 k
// per-app hourly rows against millions of attempts.
// Only the current queue is counted live from deliveries (partial indexes keep that cheap).
import { getPrisma } from '../../database/db';
import { badRequest, notFound } from '../errors';
import { Prisma } from '../../generated/prisma/client';
import type { StatsPoint } from '../../contract/schemas/stats';
import { chooseBucketSeconds, MAX_POINTS } from './choose-bucket-seconds';
import { latencyPercentile } from './latency-percentile';

export interface StatsInput {
  appId?: string;
  endpointId?: string;
  from?: Date;
  to?: Date;
  bucketSeconds?: number;
}

// The queue in the delivery vocabulary (lib/domain/deliveries/delivery-states.ts): waiting (pending, never
// tried), retrying (pending, failed at least once), delivering, dead.
type QueueState = 'waiting' | 'retrying' | 'delivering' | 'dead';
const QUEUE_STATES: QueueState[] = ['waiting', 'retrying', 'delivering', 'dead'];
// The worker's minute samples (worker/sql/sample-queue-depth.sql) name them pending / scheduled /
// delivering / dead, split as here: 'scheduled' is any pending delivery tried at least once. Samples
// taken before migration 20261123170000_write_path_v2 counted a retry already due as 'pending'.
const SAMPLE_STATE: Record<string, QueueState> = {
  pending: 'waiting',
  scheduled: 'retrying',
  delivering: 'delivering',
  dead: 'dead',
};
// hookline.latency_bucket_bounds_ms() has 14 bounds: 15 buckets, the last one "slower than 30 s".
const HISTOGRAM_BUCKETS = 15;

interface RollupTables {
  minutely: Prisma.Sql;
  hourly: Prisma.Sql;
}
const PER_APP: RollupTables = {
  minutely: Prisma.raw('hookline.stats_app_minutely'),
  hourly: Prisma.raw('hookline.stats_app_hourly'),
};
const PER_ENDPOINT: RollupTables = {
  minutely: Prisma.raw('hookline.stats_minutely'),
  hourly: Prisma.raw('hookline.stats_hourly'),
};

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

  // The rollups of the range as one row source `s` with `minute` and the given columns. With whole-hour
  // buckets, the whole hours inside the range come from the hourly table and only the partial hours at
  // its ends from the per-minute one: the same sums from ~60 times fewer rows (see migration
  // 20261122160000_stats_hourly).
  const fromMinute = new Date(Math.floor(from.getTime() / 60_000) * 60_000);
  const firstWholeHour = new Date(Math.ceil(fromMinute.getTime() / 3_600_000) * 3_600_000);
  const endOfWholeHours = new Date(Math.floor(to.getTime() / 3_600_000) * 3_600_000);
  const rangeOf = (tables: RollupTables, columns: Prisma.Sql) => {
    const scope = Prisma.sql`
      ${appId ? Prisma.sql`AND app_id = ${appId}` : Prisma.empty}
      ${input.endpointId ? Prisma.sql`AND endpoint_id = ${input.endpointId}` : Prisma.empty}`;
    const minutes = (start: Date, end: Date) =>
      Prisma.sql`SELECT minute, ${columns} FROM ${tables.minutely}
                  WHERE minute >= ${start}::timestamptz AND minute < ${end}::timestamptz ${scope}`;
    if (bucketSeconds % 3600 !== 0 || firstWholeHour >= endOfWholeHours)
      return Prisma.sql`(${minutes(fromMinute, to)}) s`;
    return Prisma.sql`(
      SELECT hour AS minute, ${columns} FROM ${tables.hourly}
       WHERE hour >= ${firstWholeHour}::timestamptz AND hour < ${endOfWholeHours}::timestamptz ${scope}
      UNION ALL ${minutes(fromMinute, firstWholeHour)}
      UNION ALL ${minutes(endOfWholeHours, to)}) s`;
  };
  // The series and breakdowns never split by endpoint, so unless one endpoint is asked for they read
  // the per-app rollups: with 100 endpoints, a hundredth of the rows (migration
  // 20261123130000_overview_rollups). The worst endpoints need the endpoint, and only their counts.
  const rollups = rangeOf(
    input.endpointId ? PER_ENDPOINT : PER_APP,
    Prisma.sql`outcome, error_class, status_code, attempts, latency_buckets`,
  );
  const endpointCounts = rangeOf(PER_ENDPOINT, Prisma.sql`endpoint_id, outcome, attempts`);
  const bucketOf = (column: Prisma.Sql) =>
    Prisma.sql`(floor(extract(epoch FROM ${column}) / ${bucketSeconds}::int) * ${bucketSeconds}::int)::float8`;
  const scopeDeliveries = Prisma.sql`
    ${appId ? Prisma.sql`AND d.app_id = ${appId}` : Prisma.empty}
    ${input.endpointId ? Prisma.sql`AND d.endpoint_id = ${input.endpointId}` : Prisma.empty}`;

  // Throughput and latency in one pass: per bucket and outcome, the attempts and the histogram summed
  // bucket by bucket (an unnest of every row's 15 buckets took 1.4 s over a week of hourly rollups
  // for 100 endpoints; element sums take 0.16 s).
  const histogramSums = Prisma.raw(
    Array.from({ length: HISTOGRAM_BUCKETS }, (_, index) => `sum(s.latency_buckets[${index + 1}])`).join(', '),
  );
  const [boundsRows, outcomeRows, errorRows, statusRows, worstRows, queueRows, sampleRows] = await Promise.all([
    prisma.$queryRaw<{ bounds: number[] }[]>`SELECT hookline.latency_bucket_bounds_ms() AS bounds`,
    prisma.$queryRaw<{ t: number; outcome: string; attempts: number; histogram: number[] }[]>`
      SELECT ${bucketOf(Prisma.sql`s.minute`)} AS t, s.outcome, sum(s.attempts)::float8 AS attempts,
             ARRAY[${histogramSums}]::float8[] AS histogram
        FROM ${rollups} GROUP BY 1, 2`,
    // Per bucket, for the error charts; the totals and shares are summed from these rows.
    prisma.$queryRaw<{ t: number; error_class: string; count: number }[]>`
      SELECT ${bucketOf(Prisma.sql`s.minute`)} AS t, s.error_class, sum(s.attempts)::float8 AS count FROM ${rollups}
       WHERE s.outcome = 'failed' AND s.error_class <> ''
       GROUP BY 1, 2`,
    prisma.$queryRaw<{ t: number; status_code: number; count: number }[]>`
      SELECT ${bucketOf(Prisma.sql`s.minute`)} AS t, s.status_code, sum(s.attempts)::float8 AS count FROM ${rollups}
       WHERE s.status_code <> 0
       GROUP BY 1, 2`,
    // Summed per endpoint first and joined to the 10 it keeps: joining every rollup row to its
    // endpoint before grouping sorted 86 k rows on disk (140 ms over 7 days; now 40 ms).
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
      WITH per_endpoint AS (
        SELECT s.endpoint_id, sum(s.attempts)::float8 AS attempts,
               coalesce(sum(s.attempts) FILTER (WHERE s.outcome = 'failed'), 0)::float8 AS failed
          FROM ${endpointCounts}
         GROUP BY 1
        HAVING sum(s.attempts) FILTER (WHERE s.outcome = 'failed') > 0
      )
      SELECT p.endpoint_id, e.app_id, e.url, e.last_error_class, p.attempts, p.failed
        FROM per_endpoint p JOIN hookline.endpoints e ON e.id = p.endpoint_id
       ORDER BY p.failed / p.attempts DESC, p.failed DESC, p.endpoint_id
       LIMIT 10`,
    // Two counts: unfinished rows (the claim index's, and the first attempts workers are sending now:
    // hookline.unfinished_deliveries), dead ones from deliveries_dead_idx (hookline.dead_deliveries).
    // Dead rows pile up until retention; unfinished ones are the live queue.
    prisma.$queryRaw<Record<QueueState, number>[]>`
      SELECT unfinished.*, dead.dead FROM (
        SELECT count(*) FILTER (WHERE d.state = 'pending' AND d.attempt_count = 0)::float8 AS waiting,
               count(*) FILTER (WHERE d.state = 'pending' AND d.attempt_count > 0)::float8 AS retrying,
               count(*) FILTER (WHERE d.state = 'delivering')::float8 AS delivering
          FROM hookline.unfinished_deliveries d
         WHERE true ${scopeDeliveries}
      ) AS unfinished, (
        SELECT count(*)::float8 AS dead FROM hookline.dead_deliveries d WHERE true ${scopeDeliveries}
      ) AS dead`,
    // Samples are taken for every app at once, once a minute, and an app with an empty queue has no
    // row. Per bucket: the last sample time in it (one backward index probe per bucket, not a sort of
    // every sample: 121 ms over 7 days before, 15 ms now), then that sample's rows summed over apps;
    // a bucket whose last sample holds no row for the app(s) comes back as one row with a null state:
    // sampled, and nothing was queued.
    // There is no per-endpoint history, so an endpoint's series has no queue points rather than its app's.
    input.endpointId
      ? Promise.resolve([])
      : prisma.$queryRaw<{ t: number; state: string | null; count: number | null }[]>`
      SELECT extract(epoch FROM b.start)::float8 AS t, q.state, sum(q.count)::float8 AS count
        FROM (
          SELECT start, (SELECT max(sampled_at) FROM hookline.queue_depth_samples
                          WHERE sampled_at >= greatest(start, ${from}::timestamptz)
                            AND sampled_at < least(start + make_interval(secs => ${bucketSeconds}::int), ${to}::timestamptz)
                        ) AS last_sampled_at
            FROM generate_series(to_timestamp(${Math.floor(from.getTime() / 1000 / bucketSeconds) * bucketSeconds}::float8),
                                 ${to}::timestamptz, make_interval(secs => ${bucketSeconds}::int)) AS start
        ) AS b
        LEFT JOIN hookline.queue_depth_samples q
          ON q.sampled_at = b.last_sampled_at ${appId ? Prisma.sql`AND q.app_id = ${appId}` : Prisma.empty}
       WHERE b.last_sampled_at IS NOT NULL
       GROUP BY 1, 2`,
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
    errorClasses: {} as Record<string, number>,
    statusCodes: {} as Record<string, number>,
  });
  for (let t = firstBucket; t < to.getTime() / 1000; t += bucketSeconds) points.set(t, emptyPoint());
  const pointAt = (t: number) => points.get(t) ?? points.set(t, emptyPoint()).get(t)!;

  if (bucketCount !== HISTOGRAM_BUCKETS) {
    throw new Error(
      `hookline.latency_bucket_bounds_ms() has ${bounds.length} bounds; lib/domain/stats expects ${HISTOGRAM_BUCKETS - 1}`,
    );
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
  for (const row of sampleRows) {
    const sampled = pointAt(row.t).queue;
    // A sample was taken in this bucket: states without a row had nothing queued.
    for (const state of QUEUE_STATES) sampled[state] ??= 0;
    const state = row.state ? SAMPLE_STATE[row.state] : undefined;
    if (state) sampled[state] = row.count ?? 0;
  }
  const queue = queueRows[0] ?? { waiting: 0, retrying: 0, delivering: 0, dead: 0 };
  // When the range ends now, its latest point is the live count the cards show, so the chart ends
  // where the cards are. An endpoint has no sampled history, so its chart stays empty.
  const lastBucket = Math.max(...points.keys());
  const endsNow = Date.now() - to.getTime() < bucketSeconds * 1000;
  if (!input.endpointId && endsNow && Number.isFinite(lastBucket)) {
    const latest = pointAt(lastBucket).queue;
    for (const state of QUEUE_STATES) latest[state] = queue[state];
  }
  const errorTotals = new Map<string, number>();
  for (const row of errorRows) {
    pointAt(row.t).errorClasses[row.error_class] = row.count;
    errorTotals.set(row.error_class, (errorTotals.get(row.error_class) ?? 0) + row.count);
  }
  const statusTotals = new Map<number, number>();
  for (const row of statusRows) {
    pointAt(row.t).statusCodes[String(row.status_code)] = row.count;
    statusTotals.set(row.status_code, (statusTotals.get(row.status_code) ?? 0) + row.count);
  }
  const failedWithClass = [...errorTotals.values()].reduce((sum, count) => sum + count, 0);
  const responses = [...statusTotals.values()].reduce((sum, count) => sum + count, 0);

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
      errorClasses: point.errorClasses,
      statusCodes: point.statusCodes,
    })) as (Omit<StatsPoint, 'time'> & { time: Date })[];

  const succeeded = series.reduce((sum, point) => sum + point.succeeded, 0);
  const failed = series.reduce((sum, point) => sum + point.failed, 0);
  const attempts = succeeded + failed;
  return {
    from,
    to,
    bucketSeconds,
    queue: { waiting: queue.waiting, retrying: queue.retrying, delivering: queue.delivering, dead: queue.dead },
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
    errorClasses: [...errorTotals]
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .map(([errorClass, count]) => ({ errorClass, count, share: count / failedWithClass })),
    statusCodes: [...statusTotals]
      .sort(([a, x], [b, y]) => y - x || a - b)
      .map(([statusCode, count]) => ({ statusCode, count, share: count / responses })),
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
