// The overview's rate card. Attempts divided by the whole range undercounts any traffic that started
// or stopped inside it (an hour's view of a demo running 7/s for 8 minutes read 0.12/s), so the rate
// is taken over the span the range actually holds attempts in: from the first minute with attempts to
// the end of the last one (or now, while that minute runs). Beside it, the last complete minute's rate,
// the "right now" number. Attempts include retries: a delivery tried three times counts three.
// Two reads of the per-minute rollups' (app or endpoint, minute) index: the first and last minute with
// attempts, and one minute's sum.
import { readPrisma } from '../../database/read-replica';
import { Prisma } from '../../generated/prisma/client';
import type { StatsRange } from './stats-range';
import { appScopeSql } from '../apps/app-scope';

export interface AttemptRate {
  /** The span the rate is over: the first minute with attempts to the end of the last (at most `to` or now). */
  from: Date;
  to: Date;
  seconds: number;
}

export interface LastMinute {
  from: Date;
  to: Date;
  attempts: number;
  attemptsPerSecond: number;
}

export async function readAttemptRate(
  range: StatsRange,
  now = new Date(),
): Promise<{ span: AttemptRate | null; lastMinute: LastMinute | null }> {
  const { endpointId } = range;
  const table = endpointId ? Prisma.raw('hookline.stats_minutely') : Prisma.raw('hookline.stats_app_minutely');
  const scope = Prisma.sql`
    ${appScopeSql(range, 'app_id')}
    ${endpointId ? Prisma.sql`AND endpoint_id = ${endpointId}` : Prisma.empty}`;
  const end = new Date(Math.min(range.to.getTime(), now.getTime()));
  const fromMinute = new Date(Math.floor(range.from.getTime() / 60_000) * 60_000);
  // The last minute that has ended by `end`.
  const lastMinuteEnd = new Date(Math.floor(end.getTime() / 60_000) * 60_000);
  const lastMinuteStart = new Date(lastMinuteEnd.getTime() - 60_000);
  const prisma = await readPrisma();
  const [spanRows, minuteRows] = await Promise.all([
    prisma.$queryRaw<{ first: Date | null; last: Date | null }[]>`
      SELECT min(minute) AS first, max(minute) AS last FROM ${table}
       WHERE minute >= ${fromMinute}::timestamptz AND minute < ${end}::timestamptz AND attempts > 0 ${scope}`,
    prisma.$queryRaw<{ attempts: number }[]>`
      SELECT coalesce(sum(attempts), 0)::float8 AS attempts FROM ${table}
       WHERE minute = ${lastMinuteStart}::timestamptz ${scope}`,
  ]);
  const first = spanRows[0]?.first;
  const last = spanRows[0]?.last;
  let span: AttemptRate | null = null;
  if (first && last) {
    const spanFrom = new Date(Math.max(first.getTime(), range.from.getTime()));
    const spanTo = new Date(Math.min(last.getTime() + 60_000, end.getTime()));
    // At least one second, so attempts in the current minute's first instant do not divide by ~0.
    const seconds = Math.max(1, (spanTo.getTime() - spanFrom.getTime()) / 1000);
    span = { from: spanFrom, to: spanTo, seconds };
  }
  const minuteInRange = lastMinuteStart >= fromMinute;
  const attempts = minuteRows[0]?.attempts ?? 0;
  const lastMinute = minuteInRange
    ? { from: lastMinuteStart, to: lastMinuteEnd, attempts, attemptsPerSecond: attempts / 60 }
    : null;
  return { span, lastMinute };
}
