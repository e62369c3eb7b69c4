// The overview's dead card (components/overview/overview-dashboard.tsx): a count that stopped at its
// cap (GET /stats queue.deadCapped) reads "10,000+", never the bound alone as if it were the number.
import { describe, expect, it } from 'vitest';
import { formatCountAtLeast } from '../../components/format';

describe('formatCountAtLeast', () => {
  it.each([
    [0, false, '0'],
    [9_999, false, '9,999'],
    [10_000, false, '10,000'],
    [10_000, true, '10,000+'],
  ])('%d, capped %s: %s', (value, capped, text) => {
    expect(formatCountAtLeast(value, capped)).toBe(text);
  });
});
