// --repeat=N: every case runs N times, interleaved (round 1 runs all cases, then round 2 ...), so that
// a burst of other load on the shared machine hits every case alike instead of one case's runs.
// Each numeric metric is reported as the median of the runs, with its min and max.

export interface Summary<T> {
  name: string;
  /** Every numeric field the median of the runs (arrays and text: the first run's). */
  median: T;
  min: T;
  max: T;
  runs: T[];
}

/** Groups the rounds' results by name (in the order first seen) and summarizes each group. */
export function summarizeRounds<T extends { name: string }>(rounds: T[][]): Summary<T>[] {
  const groups = new Map<string, T[]>();
  for (const round of rounds) {
    for (const result of round) groups.set(result.name, [...(groups.get(result.name) ?? []), result]);
  }
  return [...groups].map(([name, runs]) => ({
    name,
    median: combine(runs, median) as T,
    min: combine(runs, (values) => Math.min(...values)) as T,
    max: combine(runs, (values) => Math.max(...values)) as T,
    runs,
  }));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Reduces each numeric field over the runs (recursing into plain objects); NaN and missing runs are skipped. */
function combine(runs: unknown[], reduce: (values: number[]) => number): unknown {
  const first = runs[0];
  if (typeof first === 'number') {
    const values = runs.filter((value): value is number => typeof value === 'number' && !Number.isNaN(value));
    return values.length > 0 ? reduce(values) : NaN;
  }
  if (first !== null && typeof first === 'object' && !Array.isArray(first)) {
    const combined: Record<string, unknown> = {};
    for (const key of Object.keys(first)) {
      combined[key] = combine(
        runs.map((run) => (run as Record<string, unknown> | undefined)?.[key]),
        reduce,
      );
    }
    return combined;
  }
  return first;
}
