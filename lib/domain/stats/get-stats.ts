// The dashboard's overview numbers, one reader per panel. Everything over time comes from the
// per-minute and hourly rollups (per app: hookline.stats_app_minutely and _hourly; per endpoint:
// hookline.stats_minutely and _hourly; see rollup-rows.ts) and the once-a-minute queue samples, never
// from attempts: a week of one app is ~1 k per-app hourly rows against millions of attempts.
// Only the current queue is counted live from deliveries, through partial indexes: the unfinished
// ones cost a heap visit each (read-live-queue.ts), the dead ones are counted up to 10,000
// (read-queue-depth.ts), never every dead row the history holds.
import type { StatsPoint as WireStatsPoint } from '../../contract/schemas/stats';
import { readReplicaState } from '../../database/read-replica';
import { latencyPercentile } from './latency-percentile';
import { readAttemptRate } from './read-attempt-rate';
import { readErrorClasses } from './read-error-classes';
import { readLongestDeadline } from './read-longest-deadline';
import { QUEUE_STATES, readQueueDepth, type QueueState } from './read-queue-depth';
import { readQueueHistory } from './read-queue-history';
import { readStatusCodes } from './read-status-codes';
import { readThroughput } from './read-throughput';
import { readWorstEndpoints } from './read-worst-endpoints';
import { firstBucketStart, resolveStatsRange, type StatsInput } from './stats-range';

// The series is cast because Object.fromEntries loses the names of the queue states. Its shape is
// the contract's (lib/contract/schemas/stats.ts), with the time still a Date until it is serialized.
type StatsPoint = Omit<WireStatsPoint, 'time'> & { time: Date };

/** The answer of GET /v1/stats. */
export type Stats = Awaited<ReturnType<typeof getStats>>;

export async function getStats(input: StatsInput) {
  const range = await resolveStatsRange(input);
  const { from, to, bucketSeconds } = range;
  const [throughput, errorClasses, statusCodes, worstEndpoints, queue, queueHistory, replica, rate, longestMs] =
    await Promise.all([
      readThroughput(range),
      readErrorClasses(range),
      readStatusCodes(range),
      readWorstEndpoints(range),
      readQueueDepth(range),
      readQueueHistory(range),
      readReplicaState(),
      readAttemptRate(range),
      readLongestDeadline(range),
    ]);
  const bounds = throughput.latencyBoundsMs;
  const percentile = (histogram: number[], q: number) => latencyPercentile(histogram, bounds, q, longestMs);

  // One point per bucket of the range, and one for any other bucket a row falls in.
  const emptyPoint = () => ({
    succeeded: 0,
    failed: 0,
    histogram: new Array<number>(bounds.length + 1).fill(0),
    queue: {} as Partial<Record<QueueState, number>>,
    errorClasses: {} as Record<string, number>,
    statusCodes: {} as Record<string, number>,
  });
  const points = new Map<number, ReturnType<typeof emptyPoint>>();
  for (let t = firstBucketStart(range); t < to.getTime() / 1000; t += bucketSeconds) points.set(t, emptyPoint());
  const pointAt = (t: number) => points.get(t) ?? points.set(t, emptyPoint()).get(t)!;

  for (const [t, bucket] of throughput.buckets) Object.assign(pointAt(t), bucket);
  for (const [t, sampled] of queueHistory) pointAt(t).queue = sampled;
  // When the range ends now, its latest point is the live count the cards show, so the chart ends
  // where the cards are. An endpoint has no sampled history, so its chart stays empty.
  const lastBucket = Math.max(...points.keys());
  const endsNow = Date.now() - to.getTime() < bucketSeconds * 1000;
  if (!range.endpointId && endsNow && Number.isFinite(lastBucket)) {
    const latest = pointAt(lastBucket).queue;
    // A capped count is a lower bound, not a point of the chart: those states keep their sample.
    for (const state of QUEUE_STATES) {
      if (!(state === 'dead' ? queue.deadCapped : queue.liveCapped)) latest[state] = queue[state];
    }
  }
  for (const [t, counts] of errorClasses.buckets) pointAt(t).errorClasses = counts;
  for (const [t, counts] of statusCodes.buckets) pointAt(t).statusCodes = counts;

  const series = [...points.entries()]
    .sort(([a], [b]) => a - b)
    .map(([t, point]) => ({
      time: new Date(t * 1000),
      succeeded: point.succeeded,
      failed: point.failed,
      p50: percentile(point.histogram, 0.5),
      p95: percentile(point.histogram, 0.95),
      p99: percentile(point.histogram, 0.99),
      ...Object.fromEntries(QUEUE_STATES.map((state) => [state, point.queue[state] ?? null])),
      errorClasses: point.errorClasses,
      statusCodes: point.statusCodes,
    })) as StatsPoint[];

  const succeeded = series.reduce((sum, point) => sum + point.succeeded, 0);
  const failed = series.reduce((sum, point) => sum + point.failed, 0);
  const attempts = succeeded + failed;
  return {
    from,
    to,
    bucketSeconds,
    queue,
    totals: {
      attempts,
      succeeded,
      failed,
      successRate: attempts > 0 ? succeeded / attempts : null,
      // Over the span that holds attempts, not the whole range (read-attempt-rate.ts); retries count.
      attemptsPerSecond: rate.span ? attempts / rate.span.seconds : null,
      rateSpan: rate.span,
      lastMinute: rate.lastMinute,
      latencyMs: {
        p50: percentile(throughput.histogram, 0.5),
        p95: percentile(throughput.histogram, 0.95),
        p99: percentile(throughput.histogram, 0.99),
      },
    },
    series,
    errorClasses: errorClasses.totals,
    statusCodes: statusCodes.totals,
    readReplica: replica && {
      inUse: replica.inUse,
      lagSeconds: replica.lagSeconds,
      lagBytes: replica.lagBytes,
      problem: replica.problem,
    },
    worstEndpoints,
  };
}
