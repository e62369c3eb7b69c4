// The throughput and latency charts and the totals above them: attempts per outcome and their latency
// histogram, per bucket.
import { readPrisma } from '../../database/read-replica';
import { Prisma } from '../../generated/prisma/client';
import { OPEN_LATENCY_BUCKET_MS } from './latency-percentile';
import { bucketStart, outcomeRollups } from './rollup-rows';
import type { StatsRange } from './stats-range';

// hookline.latency_bucket_bounds_ms() has 14 bounds: 15 buckets, the last one "slower than 30 s".
const HISTOGRAM_BUCKETS = 15;

export interface BucketThroughput {
  succeeded: number;
  failed: number;
  /** Attempts per latency bucket of latencyBoundsMs. */
  histogram: number[];
}

export interface Throughput {
  /** hookline.latency_bucket_bounds_ms(): the upper bound of every histogram bucket but the last. */
  latencyBoundsMs: number[];
  /** By bucket start (Unix seconds); buckets without attempts are missing. */
  buckets: Map<number, BucketThroughput>;
  /** The whole range's histogram. */
  histogram: number[];
}

export async function readThroughput(range: StatsRange): Promise<Throughput> {
  const prisma = await readPrisma();
  // Throughput and latency in one pass: per bucket and outcome, the attempts and the histogram summed
  // bucket by bucket (an unnest of every row's 15 buckets took 1.4 s over a week of hourly rollups
  // for 100 endpoints; element sums take 0.16 s).
  const histogramSums = Prisma.raw(
    Array.from({ length: HISTOGRAM_BUCKETS }, (_, index) => `sum(s.latency_buckets[${index + 1}])`).join(', '),
  );
  const [boundsRows, outcomeRows] = await Promise.all([
    prisma.$queryRaw<{ bounds: number[] }[]>`SELECT hookline.latency_bucket_bounds_ms() AS bounds`,
    prisma.$queryRaw<{ t: number; outcome: string; attempts: number; histogram: number[] }[]>`
      SELECT ${bucketStart(range, Prisma.sql`s.minute`)} AS t, s.outcome, sum(s.attempts)::float8 AS attempts,
             ARRAY[${histogramSums}]::float8[] AS histogram
        FROM ${outcomeRollups(range)} GROUP BY 1, 2`,
  ]);

  const latencyBoundsMs = boundsRows[0]?.bounds ?? [];
  if (latencyBoundsMs.length + 1 !== HISTOGRAM_BUCKETS || latencyBoundsMs.at(-1) !== OPEN_LATENCY_BUCKET_MS) {
    throw new Error(
      `hookline.latency_bucket_bounds_ms() has ${latencyBoundsMs.length} bounds up to ${latencyBoundsMs.at(-1)}; lib/domain/stats expects ${HISTOGRAM_BUCKETS - 1} up to ${OPEN_LATENCY_BUCKET_MS}`,
    );
  }
  const buckets = new Map<number, BucketThroughput>();
  const histogram = new Array<number>(HISTOGRAM_BUCKETS).fill(0);
  for (const row of outcomeRows) {
    let bucket = buckets.get(row.t);
    if (!bucket) {
      bucket = { succeeded: 0, failed: 0, histogram: new Array<number>(HISTOGRAM_BUCKETS).fill(0) };
      buckets.set(row.t, bucket);
    }
    if (row.outcome === 'succeeded') bucket.succeeded += row.attempts;
    else bucket.failed += row.attempts;
    row.histogram.forEach((count, index) => {
      bucket.histogram[index]! += count ?? 0;
      histogram[index]! += count ?? 0;
    });
  }
  return { latencyBoundsMs, buckets, histogram };
}
