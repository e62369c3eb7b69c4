// The charts' time axis: a label must tell apart the points it marks. A day's range has hourly buckets,
// and its first and last hours share a time of day.
import { describe, expect, it } from 'vitest';
import { formatTick } from '../../components/charts/chart-time';

describe('formatTick', () => {
  it.each([3600, 7200, 10_800, 86_400])('names the day with %i s buckets, so a day apart reads apart', (bucket) => {
    const now = new Date('2026-11-25T17:00:00Z');
    const dayBefore = new Date(now.getTime() - 86_400_000);
    expect(formatTick(dayBefore.toISOString(), bucket)).not.toBe(formatTick(now.toISOString(), bucket));
    expect(formatTick(now.toISOString(), bucket)).toMatch(/\d{2} [A-Z][a-z]{2}/);
  });

  it('shows the time alone within a few hours, where every tick is the same day', () => {
    expect(formatTick('2026-11-25T17:05:00Z', 60)).toMatch(/^\d\d:\d\d$/);
    expect(formatTick('2026-11-25T17:05:00Z', 1800)).toMatch(/^\d\d:\d\d$/);
  });
});
