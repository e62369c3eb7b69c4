// The longest an attempt in a stats scope can last: the largest per-attempt deadline of its endpoints,
// each resolved as the worker does (the endpoint's own, else its app's, else
// HOOKLINE_DELIVERY_TIMEOUT_MS; worker/sql/load-endpoints.sql). latency-percentile.ts cuts its
// estimates to it. It is today's settings, not those of the range: a deadline lowered since, or an
// endpoint deleted since, can make it shorter than some attempts counted, which is why the percentile
// never goes below the bucket those attempts were counted in.
import { readPrisma } from '../../database/read-replica';
import { getApiSettings } from '../../runtime/api-settings';
import { Prisma } from '../../generated/prisma/client';
import { appScopeSql } from '../apps/app-scope';
import type { StatsRange } from './stats-range';

/** Null when the scope has no endpoint (then no attempt either, unless every endpoint was deleted). */
export async function readLongestDeadline(range: StatsRange): Promise<number | null> {
  const prisma = await readPrisma();
  const { deliveryTimeoutMs } = getApiSettings();
  const rows = await prisma.$queryRaw<{ longest: number | null }[]>`
    SELECT max(coalesce(e.timeout_ms, a.timeout_ms, ${deliveryTimeoutMs}::int))::float8 AS longest
      FROM hookline.endpoints e JOIN hookline.apps a ON a.id = e.app_id
     WHERE true ${appScopeSql(range, 'e.app_id')}
       ${range.endpointId ? Prisma.sql`AND e.id = ${range.endpointId}` : Prisma.empty}`;
  return rows[0]?.longest ?? null;
}
