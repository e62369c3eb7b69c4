// The shape the error-class and status-code panels share: attempts per key, per bucket and over the range.

export interface Breakdown<Key> {
  /** By bucket start (Unix seconds): the count of each key, in the order the rows came. */
  buckets: Map<number, Record<string, number>>;
  /** Summed over the range, largest first, each with its share of all counted. */
  totals: { key: Key; count: number; share: number }[];
}

/** Rows of one count per bucket and key, as a breakdown; ties in the totals go by `compareKeys`. */
export function summarizeBreakdown<Key>(
  rows: { t: number; key: Key; count: number }[],
  compareKeys: (a: Key, b: Key) => number,
): Breakdown<Key> {
  const buckets = new Map<number, Record<string, number>>();
  const totals = new Map<Key, number>();
  for (const row of rows) {
    const counts = buckets.get(row.t) ?? buckets.set(row.t, {}).get(row.t)!;
    counts[String(row.key)] = row.count;
    totals.set(row.key, (totals.get(row.key) ?? 0) + row.count);
  }
  const counted = [...totals.values()].reduce((sum, count) => sum + count, 0);
  return {
    buckets,
    totals: [...totals]
      .sort(([a, x], [b, y]) => y - x || compareKeys(a, b))
      .map(([key, count]) => ({ key, count, share: count / counted })),
  };
}
