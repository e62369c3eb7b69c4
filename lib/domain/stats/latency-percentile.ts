/** hookline.latency_bucket_bounds_ms()'s last bound: a percentile reported as this is "this slow or slower". */
export const OPEN_LATENCY_BUCKET_MS = 30_000;

/**
 * The q-quantile (0..1) of latencies counted in histogram buckets, as written by the worker:
 * counts[0] holds durations below bounds[0], counts[k] those in [bounds[k-1], bounds[k]), and the
 * last bucket those at or above the last bound. Interpolates linearly inside the bucket (the usual
 * Prometheus histogram_quantile estimate); a quantile in the open-ended last bucket is reported as the
 * last bound, the most that can be said ("30 s or slower"). Null when nothing was counted.
 *
 * longestMs is the longest an attempt in scope can last (read-longest-deadline.ts). Interpolation
 * spreads a bucket's attempts evenly over it, but timeouts pile up at the deadline: with 3 % of
 * attempts timing out at the default 15 s and the rest at ~80 ms, p99 fell in the 10-30 s bucket and
 * read 23.3 s, longer than any attempt could take. The estimate is cut to the deadline, but never
 * below its bucket's lower bound: an attempt counted there did last that long (under a deadline since
 * lowered, or of an endpoint since deleted), and the histogram outranks the settings.
 */
export function latencyPercentile(
  counts: readonly number[],
  bounds: readonly number[],
  q: number,
  longestMs: number | null = null,
): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total <= 0) return null;
  const target = q * total;
  let before = 0;
  for (let k = 0; k < counts.length; k++) {
    const count = counts[k] ?? 0;
    if (count > 0 && before + count >= target) {
      if (k >= bounds.length) return bounds.at(-1) ?? null;
      const lower = k === 0 ? 0 : bounds[k - 1]!;
      const upper = bounds[k]!;
      const estimate = lower + ((upper - lower) * (target - before)) / count;
      return longestMs === null ? estimate : Math.min(estimate, Math.max(lower, longestMs));
    }
    before += count;
  }
  return bounds.at(-1) ?? null;
}
