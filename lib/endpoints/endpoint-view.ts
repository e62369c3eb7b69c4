import { getPrisma } from '../db';
import type { Endpoint } from '../generated/prisma/client';

interface HealthCounts {
  attempts24h: number;
  succeeded24h: number;
  pending: number;
}

/** Endpoints as the API shows them, with health: 24 h figures come from the per-minute rollups, not attempts. */
export async function endpointViews(rows: Endpoint[]) {
  const counts = await healthCounts(rows.map((row) => row.id));
  return rows.map((row) => endpointView(row, counts.get(row.id)));
}

export async function endpointViewOf(row: Endpoint) {
  const [view] = await endpointViews([row]);
  return view!;
}

function endpointView(row: Endpoint, counts: HealthCounts | undefined) {
  const attempts24h = counts?.attempts24h ?? 0;
  return {
    id: row.id,
    appId: row.appId,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt,
    maxConcurrency: row.maxConcurrency,
    rateLimitPerSecond: row.rateLimitPerSecond,
    headers: row.headers as Record<string, string>,
    implicit: row.implicit,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    health: {
      circuitState: row.circuitState as 'closed' | 'open' | 'half_open',
      consecutiveFailures: row.consecutiveFailures,
      lastSuccessAt: row.lastSuccessAt,
      lastFailureAt: row.lastFailureAt,
      lastErrorClass: row.lastErrorClass,
      successRate24h: attempts24h > 0 ? (counts?.succeeded24h ?? 0) / attempts24h : null,
      attempts24h,
      pending: counts?.pending ?? 0,
    },
  };
}

async function healthCounts(endpointIds: string[]): Promise<Map<string, HealthCounts>> {
  const result = new Map<string, HealthCounts>();
  if (endpointIds.length === 0) return result;
  const rows = await getPrisma().$queryRaw<{ endpoint_id: string; attempts: number; succeeded: number; pending: number }[]>`
    SELECT ids.endpoint_id,
           coalesce(s.attempts, 0)::float8 AS attempts,
           coalesce(s.succeeded, 0)::float8 AS succeeded,
           (SELECT count(*) FROM hookline.deliveries d
             WHERE d.endpoint_id = ids.endpoint_id AND d.state IN ('pending', 'delivering'))::float8 AS pending
      FROM unnest(${endpointIds}::text[]) AS ids(endpoint_id)
      LEFT JOIN (
        SELECT endpoint_id, sum(attempts) AS attempts, sum(attempts) FILTER (WHERE outcome = 'succeeded') AS succeeded
          FROM hookline.stats_minutely
         WHERE endpoint_id = ANY (${endpointIds}::text[]) AND minute >= now() - interval '24 hours'
         GROUP BY endpoint_id
      ) AS s ON s.endpoint_id = ids.endpoint_id`;
  for (const row of rows) {
    result.set(row.endpoint_id, { attempts24h: row.attempts, succeeded24h: row.succeeded, pending: row.pending });
  }
  return result;
}
