// The status code chart: attempts per response status code, per bucket and over the range.
import { readPrisma } from '../../database/read-replica';
import { Prisma } from '../../generated/prisma/client';
import { summarizeBreakdown } from './breakdown';
import { bucketStart, outcomeRollups } from './rollup-rows';
import type { StatsRange } from './stats-range';

/**
 * Attempts per response status code: per bucket, and over the range most frequent first, each with its
 * share of the attempts that got a response.
 */
export async function readStatusCodes(range: StatsRange) {
  const rows = await (
    await readPrisma()
  ).$queryRaw<{ t: number; status_code: number; count: number }[]>`
      SELECT ${bucketStart(range, Prisma.sql`s.minute`)} AS t, s.status_code, sum(s.attempts)::float8 AS count FROM ${outcomeRollups(range)}
       WHERE s.status_code <> 0
       GROUP BY 1, 2`;
  const { buckets, totals } = summarizeBreakdown(
    rows.map((row) => ({ t: row.t, key: row.status_code, count: row.count })),
    (a, b) => a - b,
  );
  return { buckets, totals: totals.map(({ key, count, share }) => ({ statusCode: key, count, share })) };
}
