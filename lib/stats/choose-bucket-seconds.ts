// Series widths a chart reads well: about 60-120 points over any range from an hour to a month.
const NICE_BUCKETS = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];
const TARGET_POINTS = 120;
export const MAX_POINTS = 1500;

export function chooseBucketSeconds(rangeSeconds: number): number {
  return NICE_BUCKETS.find((bucket) => rangeSeconds / bucket <= TARGET_POINTS) ?? NICE_BUCKETS.at(-1)!;
}
