// Where a range's attempts are read from: the per-minute or the hourly rollups, per app or per endpoint.
import { Prisma } from '../../generated/prisma/client';
import type { StatsRange } from './stats-range';
import { appScopeSql } from '../apps/app-scope';

interface RollupTables {
  minutely: Prisma.Sql;
  hourly: Prisma.Sql;
}
const PER_APP: RollupTables = {
  minutely: Prisma.raw('hookline.stats_app_minutely'),
  hourly: Prisma.raw('hookline.stats_app_hourly'),
};
const PER_ENDPOINT: RollupTables = {
  minutely: Prisma.raw('hookline.stats_minutely'),
  hourly: Prisma.raw('hookline.stats_hourly'),
};

// The series and breakdowns never split by endpoint, so unless one endpoint is asked for they read
// the per-app rollups: with 100 endpoints, a hundredth of the rows (migration
// 20261123130000_overview_rollups).
export function outcomeRollups(range: StatsRange): Prisma.Sql {
  return rollupRows(
    range,
    range.endpointId ? PER_ENDPOINT : PER_APP,
    Prisma.sql`outcome, error_class, status_code, attempts, latency_buckets`,
  );
}

// The worst endpoints need the endpoint, and only their counts.
export function endpointCountRollups(range: StatsRange): Prisma.Sql {
  return rollupRows(range, PER_ENDPOINT, Prisma.sql`endpoint_id, outcome, attempts`);
}

/** A timestamp column as the start, in Unix seconds, of the bucket it falls in. */
export function bucketStart({ bucketSeconds }: StatsRange, column: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(floor(extract(epoch FROM ${column}) / ${bucketSeconds}::int) * ${bucketSeconds}::int)::float8`;
}

// The rollups of the range as one row source `s` with `minute` and the given columns. With whole-hour
// buckets, the whole hours inside the range come from the hourly table and only the partial hours at
// its ends from the per-minute one: the same sums from ~60 times fewer rows (see migration
// 20261122160000_stats_hourly).
function rollupRows(range: StatsRange, tables: RollupTables, columns: Prisma.Sql): Prisma.Sql {
  const { from, to, bucketSeconds, endpointId } = range;
  const fromMinute = new Date(Math.floor(from.getTime() / 60_000) * 60_000);
  const firstWholeHour = new Date(Math.ceil(fromMinute.getTime() / 3_600_000) * 3_600_000);
  const endOfWholeHours = new Date(Math.floor(to.getTime() / 3_600_000) * 3_600_000);
  const scope = Prisma.sql`
      ${appScopeSql(range, 'app_id')}
      ${endpointId ? Prisma.sql`AND endpoint_id = ${endpointId}` : Prisma.empty}`;
  const minutes = (start: Date, end: Date) =>
    Prisma.sql`SELECT minute, ${columns} FROM ${tables.minutely}
                  WHERE minute >= ${start}::timestamptz AND minute < ${end}::timestamptz ${scope}`;
  if (bucketSeconds % 3600 !== 0 || firstWholeHour >= endOfWholeHours)
    return Prisma.sql`(${minutes(fromMinute, to)}) s`;
  return Prisma.sql`(
      SELECT hour AS minute, ${columns} FROM ${tables.hourly}
       WHERE hour >= ${firstWholeHour}::timestamptz AND hour < ${endOfWholeHours}::timestamptz ${scope}
      UNION ALL ${minutes(fromMinute, firstWholeHour)}
      UNION ALL ${minutes(endOfWholeHours, to)}) s`;
}
