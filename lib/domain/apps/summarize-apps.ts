import { readPrisma } from '../../database/read-replica';
import { EMPTY_LIVE_QUEUE, readLiveQueue, type LiveQueue } from '../stats/read-live-queue';

export interface AppSummary {
  endpoints: number;
  attempts24h: number;
  successRate24h: number | null;
  /** Waiting, retrying and delivering now. */
  queued: number;
  /** The page's apps hold more than LIVE_COUNT_CAP unfinished deliveries: the counts are lower bounds. */
  queueCapped: boolean;
  /** The waiting and retrying by what they wait for (read-live-queue.ts), and the ones being sent. */
  queue: LiveQueue['waitingFor'] & { delivering: number };
}

/**
 * What the apps list shows beside each name, for one page of apps in three small reads: endpoints
 * counted per app, attempts from the per-app hourly rollups (the 24 hours ending with the current one;
 * the worker writes the current hour with every flush), and the live queue (read-live-queue.ts: the
 * unfinished deliveries of the page's apps, at most LIVE_COUNT_CAP of them, so the list costs the same
 * at any history and any backlog; a once-a-minute
 * sample was up to a minute old and could not say what the queue waits for).
 */
export async function summarizeApps(appIds: string[]): Promise<Map<string, AppSummary>> {
  const prisma = await readPrisma();
  const [endpointRows, rollupRows, queues] = await Promise.all([
    prisma.endpoint.groupBy({ by: ['appId'], where: { appId: { in: appIds } }, _count: { _all: true } }),
    prisma.$queryRaw<{ app_id: string; attempts: number; succeeded: number }[]>`
      SELECT app_id, sum(attempts)::float8 AS attempts,
             coalesce(sum(attempts) FILTER (WHERE outcome = 'succeeded'), 0)::float8 AS succeeded
        FROM hookline.stats_app_hourly
       WHERE hour >= date_trunc('hour', now()) - interval '23 hours' AND app_id = ANY(${appIds})
       GROUP BY app_id`,
    readLiveQueue({ appIds }),
  ]);
  const summaries = new Map<string, AppSummary>();
  for (const appId of appIds) {
    const rollup = rollupRows.find((row) => row.app_id === appId);
    const attempts = rollup?.attempts ?? 0;
    const queue = queues.apps.get(appId) ?? EMPTY_LIVE_QUEUE;
    summaries.set(appId, {
      endpoints: endpointRows.find((row) => row.appId === appId)?._count._all ?? 0,
      attempts24h: attempts,
      successRate24h: attempts > 0 ? rollup!.succeeded / attempts : null,
      queued: queue.waiting + queue.retrying + queue.delivering,
      queueCapped: queues.capped,
      queue: { ...queue.waitingFor, delivering: queue.delivering },
    });
  }
  return summaries;
}
