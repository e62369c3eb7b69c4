// One endpoint's delivery numbers over a range: what its owner can act on (how many attempts
// succeeded, how fast the receiver answered), read from the same per-endpoint rollups as the
// overview (read-throughput.ts), never from attempts. Nothing of the deployment (queue, replica,
// other endpoints) is in it, so the customer portal can show it as it is.
import { latencyPercentile } from './latency-percentile';
import { readLongestDeadline } from './read-longest-deadline';
import { readThroughput } from './read-throughput';
import { firstBucketStart, resolveStatsRange } from './stats-range';

export async function getEndpointStats({
  appId,
  endpointId,
  from,
  to,
  bucketSeconds,
}: {
  appId: string;
  endpointId: string;
  from?: Date;
  to?: Date;
  bucketSeconds?: number;
}) {
  // Not found when the endpoint is not this app's: a portal session learns nothing of another app's.
  const range = await resolveStatsRange({ appId, endpointId, from, to, bucketSeconds });
  const [throughput, longestMs] = await Promise.all([readThroughput(range), readLongestDeadline(range)]);
  const bounds = throughput.latencyBoundsMs;
  const percentile = (histogram: number[], q: number) => latencyPercentile(histogram, bounds, q, longestMs);
  const series = [];
  for (let t = firstBucketStart(range); t < range.to.getTime() / 1000; t += range.bucketSeconds) {
    const bucket = throughput.buckets.get(t);
    series.push({
      time: new Date(t * 1000),
      succeeded: bucket?.succeeded ?? 0,
      failed: bucket?.failed ?? 0,
      p50: bucket ? percentile(bucket.histogram, 0.5) : null,
      p95: bucket ? percentile(bucket.histogram, 0.95) : null,
      p99: bucket ? percentile(bucket.histogram, 0.99) : null,
    });
  }
  const succeeded = series.reduce((sum, point) => sum + point.succeeded, 0);
  const failed = series.reduce((sum, point) => sum + point.failed, 0);
  const attempts = succeeded + failed;
  return {
    from: range.from,
    to: range.to,
    bucketSeconds: range.bucketSeconds,
    totals: {
      attempts,
      succeeded,
      failed,
      successRate: attempts > 0 ? succeeded / attempts : null,
      latencyMs: {
        p50: percentile(throughput.histogram, 0.5),
        p95: percentile(throughput.histogram, 0.95),
        p99: percentile(throughput.histogram, 0.99),
      },
    },
    series,
  };
}
