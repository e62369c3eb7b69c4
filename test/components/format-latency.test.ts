// The latency cards and the chart's tooltip: a percentile in the histogram's open-ended last bucket
// (GET /stats reports it as that bucket's lower bound, 30000) reads "≥ 30 s", never a measured "30.0 s".
import { describe, expect, it } from 'vitest';
import { formatLatency } from '../../components/format';

describe('formatLatency', () => {
  it.each([
    [null, '—'],
    [80, '80 ms'],
    [15_000, '15.0 s'],
    [29_999, '30.0 s'],
    [30_000, '≥ 30 s'],
  ])('%s: %s', (value, text) => {
    expect(formatLatency(value)).toBe(text);
  });
});
