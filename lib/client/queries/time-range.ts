export const TIME_RANGES = {
  '15m': { label: '15 min', ms: 15 * 60_000 },
  '1h': { label: '1 h', ms: 60 * 60_000 },
  '24h': { label: '24 h', ms: 24 * 60 * 60_000 },
  '7d': { label: '7 d', ms: 7 * 24 * 60 * 60_000 },
} as const;

export type TimeRange = keyof typeof TIME_RANGES;

export function isTimeRange(value: string | null | undefined): value is TimeRange {
  return value != null && value in TIME_RANGES;
}

/** The window ending now; computed at fetch time so that a live refresh slides it forward. */
export function rangeToWindow(range: TimeRange, now = Date.now()): { from: string; to: string } {
  return { from: new Date(now - TIME_RANGES[range].ms).toISOString(), to: new Date(now).toISOString() };
}
