// Series widths a chart reads well: up to 120 points over any range from an hour to a month.
const NICE_BUCKETS = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];
const TARGET_POINTS = 120;
export const MAX_POINTS = 1500;

// Past six hours the buckets are whole hours, so the stats read hourly rollups (a day of minutes for 100
// endpoints is ~300 k rollup rows, far too many to sum per refresh; its 24 hours are ~5 k): a day is
// 24 points, a week 84.
const HOURLY_FROM_SECONDS = 6 * 3600;

export function chooseBucketSeconds(rangeSeconds: number): number {
  const candidates =
    rangeSeconds > HOURLY_FROM_SECONDS ? NICE_BUCKETS.filter((bucket) => bucket % 3600 === 0) : NICE_BUCKETS;
  return candidates.find((bucket) => rangeSeconds / bucket <= TARGET_POINTS) ?? candidates.at(-1)!;
}
