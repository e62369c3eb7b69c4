// The error charts: failed attempts per error class, per bucket and over the range.
import { readPrisma } from '../../database/read-replica';
import { Prisma } from '../../generated/prisma/client';
import { summarizeBreakdown } from './breakdown';
import { bucketStart, outcomeRollups } from './rollup-rows';
import type { StatsRange } from './stats-range';

/**
 * Failed attempts per error class: per bucket, and over the range most frequent first, each with its
 * share of the failed attempts that have a class.
 */
export async function readErrorClasses(range: StatsRange) {
  // Per bucket, for the error charts; the totals and shares are summed from these rows.
  const rows = await (
    await readPrisma()
  ).$queryRaw<{ t: number; error_class: string; count: number }[]>`
      SELECT ${bucketStart(range, Prisma.sql`s.minute`)} AS t, s.error_class, sum(s.attempts)::float8 AS count FROM ${outcomeRollups(range)}
       WHERE s.outcome = 'failed' AND s.error_class <> ''
       GROUP BY 1, 2`;
  const { buckets, totals } = summarizeBreakdown(
    rows.map((row) => ({ t: row.t, key: row.error_class, count: row.count })),
    (a, b) => a.localeCompare(b),
  );
  return { buckets, totals: totals.map(({ key, count, share }) => ({ errorClass: key, count, share })) };
}
