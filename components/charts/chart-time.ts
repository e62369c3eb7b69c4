/** Tick labels sized to the bucket: minutes within a day, dates beyond. */
export function formatTick(iso: string, bucketSeconds: number): string {
  const date = new Date(iso);
  if (bucketSeconds >= 3600 * 3) {
    return date.toLocaleString('en-GB', { month: 'short', day: '2-digit', hour: '2-digit', hour12: false });
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
