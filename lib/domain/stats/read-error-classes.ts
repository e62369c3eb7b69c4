// The error charts: failed attempts per error class, per bucket and over the range.
import { getPrisma } from '../../database/db';
import { Prisma } from '../../generated/prisma/client';
import { summarizeBreakdown } from './breakdown';
import { bucketStart, outcomeRollups } from './rollup-rows';
import type { StatsRange } from './stats-range';

export interface ErrorClasses {
  /** By bucket start (Unix seconds): failed attempts per error class. */
  buckets: Map<number, Record<string, number>>;
  /** Most frequent first; the share is of the failed attempts that have an error class. */
  totals: { errorClass: string; count: number; share: number }[];
}

export async function readErrorClasses(range: StatsRange): Promise<ErrorClasses> {
  // Per bucket, for the error charts; the totals and shares are summed from these rows.
  const rows = await getPrisma().$queryRaw<{ t: number; error_class: string; count: number }[]>`
      SELECT ${bucketStart(range, Prisma.sql`s.minute`)} AS t, s.error_class, sum(s.attempts)::float8 AS count FROM ${outcomeRollups(range)}
       WHERE s.outcome = 'failed' AND s.error_class <> ''
       GROUP BY 1, 2`;
  const { buckets, totals } = summarizeBreakdown(
    rows.map((row) => ({ t: row.t, key: row.error_class, count: row.count })),
    (a, b) => a.localeCompare(b),
  );
  return { buckets, totals: totals.map(({ key, count, share }) => ({ errorClass: key, count, share })) };
}
