/** Tick labels sized to the bucket: times alone while buckets are under an hour (a range of six hours
 * at most); with hourly buckets or wider the range spans days, so each label carries its date
 * (a day's axis read "17:00 … 17:00" with times alone). */
export function formatTick(iso: string, bucketSeconds: number): string {
  const date = new Date(iso);
  if (bucketSeconds >= 3600) {
    return date.toLocaleString('en-GB', { month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false });
  }
  return date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false });
}

export function formatTooltipTime(iso: unknown): string {
  return typeof iso === 'string'
    ? new Date(iso).toLocaleString('en-GB', { month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false })
    : String(iso);
}

export const AXIS_STYLE = { fontSize: 11, fill: '#71717a' };
export const CHART_HEIGHT = 200;
