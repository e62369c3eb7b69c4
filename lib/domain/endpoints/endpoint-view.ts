import { getPrisma } from '../../database/db';
import { Prisma } from '../../generated/prisma/client';
import { LIVE_COUNT_CAP, readQueueRows, UNFINISHED_CTES, unfinishedOfScopeEndpoints } from '../stats/read-live-queue';
import type { Endpoint } from '../../generated/prisma/client';
import { effectiveRetryPolicy, formatRetrySchedule, retryPolicyView, type StoredPolicy } from './retry-policy';

interface HealthCounts {
  attempts24h: number;
  succeeded24h: number;
  pending: number;
  /** `pending` was counted up to this many (pendingCountCap). */
  cap: number;
}

/**
 * How far each endpoint's unfinished deliveries are counted, when `endpoints` are counted together:
 * they share the live queue's budget of LIVE_COUNT_CAP rows read (lib/domain/stats/read-live-queue.ts),
 * with at least 100 each. One endpoint's page counts to 10,000; a list page of 100 endpoints to 100
 * each, about 10,000 heap visits however long an outage made the backlogs (the benchmark's 10 M fill
 * waits ~1,000 retries on each of its 100 endpoints: counted to 1,000 each, the list read 100,000).
 */
export function pendingCountCap(endpoints: number): number {
  return Math.max(100, Math.floor(LIVE_COUNT_CAP / Math.max(1, endpoints)));
}

/** Endpoints as the API shows them, with health: 24 h figures come from the rollups, not attempts. */
export async function endpointViews(rows: Endpoint[]) {
  const [counts, apps] = await Promise.all([healthCounts(rows), appPolicies(rows)]);
  return rows.map((row) => endpointView(row, counts.get(row.id), apps.get(row.appId) ?? INHERIT));
}

const INHERIT: StoredPolicy = { retryScheduleMs: [], timeoutMs: null };

/** The apps' defaults, for each endpoint's effective retry policy. */
async function appPolicies(rows: Endpoint[]): Promise<Map<string, StoredPolicy>> {
  const ids = [...new Set(rows.map((row) => row.appId))];
  if (ids.length === 0) return new Map();
  const apps = await getPrisma().app.findMany({
    where: { id: { in: ids } },
    select: { id: true, retryScheduleMs: true, timeoutMs: true },
  });
  return new Map(apps.map((app) => [app.id, app]));
}

export async function endpointViewOf(row: Endpoint) {
  const [view] = await endpointViews([row]);
  return view!;
}

function endpointView(row: Endpoint, counts: HealthCounts | undefined, app: StoredPolicy) {
  const attempts24h = counts?.attempts24h ?? 0;
  return {
    id: row.id,
    appId: row.appId,
    url: row.url,
    method: row.method as 'POST' | 'GET' | 'DELETE',
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt,
    maxConcurrency: row.maxConcurrency,
    rateLimitPerSecond: row.rateLimitPerSecond,
    headers: row.headers as Record<string, string>,
    implicit: row.implicit,
    retrySchedule: row.retryScheduleMs.length > 0 ? formatRetrySchedule(row.retryScheduleMs) : null,
    timeoutMs: row.timeoutMs,
    retryPolicy: retryPolicyView(effectiveRetryPolicy(row, app)),
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
      pending: counts ? Math.min(counts.pending, counts.cap) : 0,
      pendingCapped: counts ? counts.pending > counts.cap : false,
    },
  };
}

async function healthCounts(endpoints: Endpoint[]): Promise<Map<string, HealthCounts>> {
  const result = new Map<string, HealthCounts>();
  if (endpoints.length === 0) return result;
  const endpointIds = endpoints.map((endpoint) => endpoint.id);
  const cap = pendingCountCap(endpoints.length);
  // Two statements, side by side: the queue's runs with plain index scans off (readQueueRows says why),
  // which the rollups' must not: without them the edge minutes were a sequential scan of every
  // per-minute rollup row (17 M rows, 4.5 s at the benchmark's 10 M deliveries).
  const [rollupRows, queueRows] = await Promise.all([
    // The last 24 hours: whole hours from the hourly rollups, the partial hours at both ends from the
    // per-minute ones (a day of minutes for 100 endpoints is ~300 k rows; its hours ~5 k).
    getPrisma().$queryRaw<{ endpoint_id: string; attempts: number; succeeded: number }[]>`
      WITH bounds AS (
        SELECT now() - interval '24 hours' AS since,
               date_trunc('hour', now() - interval '24 hours') + interval '1 hour' AS first_hour,
               date_trunc('hour', now()) AS last_hour
      ), rollups AS (
        SELECT h.endpoint_id, h.outcome, h.attempts FROM hookline.stats_hourly h, bounds b
         WHERE h.endpoint_id = ANY (${endpointIds}::text[]) AND h.hour >= b.first_hour AND h.hour < b.last_hour
        UNION ALL
        -- Each edge its own plain range on the primary key's leading column (an OR of the two let the
        -- planner scan every minute of the table: 1.8 s at 4 M rollup rows).
        SELECT m.endpoint_id, m.outcome, m.attempts FROM hookline.stats_minutely m, bounds b
         WHERE m.endpoint_id = ANY (${endpointIds}::text[]) AND m.minute >= b.since AND m.minute < b.first_hour
        UNION ALL
        SELECT m.endpoint_id, m.outcome, m.attempts FROM hookline.stats_minutely m, bounds b
         WHERE m.endpoint_id = ANY (${endpointIds}::text[]) AND m.minute >= b.last_hour
      )
      SELECT endpoint_id, sum(attempts)::float8 AS attempts,
             coalesce(sum(attempts) FILTER (WHERE outcome = 'succeeded'), 0)::float8 AS succeeded
        FROM rollups GROUP BY endpoint_id`,
    readQueueRows<{ endpoint_id: string; pending: number }>(getPrisma(), pendingCountStatement(endpoints, cap)),
  ]);
  const rollups = new Map(rollupRows.map((row) => [row.endpoint_id, row]));
  const pending = new Map(queueRows.map((row) => [row.endpoint_id, row.pending]));
  for (const id of endpointIds) {
    const rollup = rollups.get(id);
    result.set(id, {
      attempts24h: rollup?.attempts ?? 0,
      succeeded24h: rollup?.succeeded ?? 0,
      pending: pending.get(id) ?? 0,
      cap,
    });
  }
  return result;
}

/**
 * Each endpoint's unfinished deliveries, from hookline.unfinished_deliveries' two parts (the claim
 * queue, read per endpoint through deliveries_queue_idx, and the first attempts workers are sending
 * now), counted up to `cap` + 1 each: the current queue only, never the finished rows. Run by
 * readQueueRows.
 */
export function pendingCountStatement(endpoints: Pick<Endpoint, 'id' | 'appId'>[], cap: number): Prisma.Sql {
  return Prisma.sql`
    WITH scope_endpoints AS (
      SELECT * FROM unnest(${endpoints.map((endpoint) => endpoint.id)}::text[],
                           ${endpoints.map((endpoint) => endpoint.appId)}::text[]) AS ids(id, app_id)
    ), ${UNFINISHED_CTES}
    SELECT endpoint_id, count(*)::float8 AS pending
      FROM (${unfinishedOfScopeEndpoints(cap + 1)}) AS u
     GROUP BY endpoint_id`;
}
