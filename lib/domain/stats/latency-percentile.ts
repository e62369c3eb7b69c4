/**
 * The q-quantile (0..1) of latencies counted in histogram buckets, as written by the worker:
 * counts[0] holds durations below bounds[0], counts[k] those in [bounds[k-1], bounds[k]), and the
 * last bucket those at or above the last bound. Interpolates linearly inside the bucket (the usual
 * Prometheus histogram_quantile estimate); a quantile in the open-ended last bucket is reported as the
 * last bound, the most that can be said. Null when nothing was counted.
 */
export function latencyPercentile(counts: readonly number[], bounds: readonly number[], q: number): number | null {
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
      return lower + ((upper - lower) * (target - before)) / count;
    }
    before += count;
  }
  return bounds.at(-1) ?? null;
}
