import { readPrisma } from '../../database/read-replica';

export interface AppSummary {
  endpoints: number;
  attempts24h: number;
  successRate24h: number | null;
  /** Waiting, retrying and delivering at the latest queue sample; null before any was taken. */
  queued: number | null;
  queuedSampledAt: Date | null;
}

/**
 * What the apps list shows beside each name, for one page of apps in three small reads: endpoints
 * counted per app, attempts from the per-app hourly rollups (the 24 hours ending with the current one;
 * the worker writes the current hour with every flush), the queue from the workers' latest
 * once-a-minute sample. None of them reads deliveries or attempts, so the list costs the same at
 * 10 M attempts as at ten.
 */
export async function summarizeApps(appIds: string[]): Promise<Map<string, AppSummary>> {
  const prisma = await readPrisma();
  const [endpointRows, rollupRows, queueRows] = await Promise.all([
    prisma.endpoint.groupBy({ by: ['appId'], where: { appId: { in: appIds } }, _count: { _all: true } }),
    prisma.$queryRaw<{ app_id: string; attempts: number; succeeded: number }[]>`
      SELECT app_id, sum(attempts)::float8 AS attempts,
             coalesce(sum(attempts) FILTER (WHERE outcome = 'succeeded'), 0)::float8 AS succeeded
        FROM hookline.stats_app_hourly
       WHERE hour >= date_trunc('hour', now()) - interval '23 hours' AND app_id = ANY(${appIds})
       GROUP BY app_id`,
    // The latest sample time first (one backward probe of the sampled_at index); an app without a row
    // in that sample had nothing queued.
    prisma.$queryRaw<{ sampled_at: Date; app_id: string | null; queued: number | null }[]>`
      SELECT latest.sampled_at, q.app_id, sum(q.count)::float8 AS queued
        FROM (SELECT max(sampled_at) AS sampled_at FROM hookline.queue_depth_samples) AS latest
        LEFT JOIN hookline.queue_depth_samples q
          ON q.sampled_at = latest.sampled_at AND q.state IN ('pending', 'scheduled', 'delivering')
         AND q.app_id = ANY(${appIds})
       WHERE latest.sampled_at IS NOT NULL
       GROUP BY 1, 2`,
  ]);
  const sampledAt = queueRows[0]?.sampled_at ?? null;
  const summaries = new Map<string, AppSummary>();
  for (const appId of appIds) {
    const rollup = rollupRows.find((row) => row.app_id === appId);
    const attempts = rollup?.attempts ?? 0;
    summaries.set(appId, {
      endpoints: endpointRows.find((row) => row.appId === appId)?._count._all ?? 0,
      attempts24h: attempts,
      successRate24h: attempts > 0 ? rollup!.succeeded / attempts : null,
      queued: sampledAt ? (queueRows.find((row) => row.app_id === appId)?.queued ?? 0) : null,
      queuedSampledAt: sampledAt,
    });
  }
  return summaries;
}
