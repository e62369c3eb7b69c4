// The queue cards: the deliveries of the app or endpoint asked for in each queue state, counted now
// (read-live-queue.ts for the unfinished ones; dead ones from deliveries_dead_idx), and what the
// waiting and retrying ones wait for.
import { readPrisma } from '../../database/read-replica';
import { Prisma } from '../../generated/prisma/client';
import { readLiveQueue, sumLiveQueues, type LiveQueue } from './read-live-queue';
import type { StatsRange } from './stats-range';
import { appScopeSql } from '../apps/app-scope';

// The queue in the delivery vocabulary (lib/domain/deliveries/delivery-states.ts): waiting (pending, never
// tried), retrying (pending, failed at least once), delivering, dead.
export type QueueState = 'waiting' | 'retrying' | 'delivering' | 'dead';
export const QUEUE_STATES: QueueState[] = ['waiting', 'retrying', 'delivering', 'dead'];

/**
 * The dead count stops here, so it costs the same at any history. Dead deliveries stay until
 * retention drops their period, and each one counted is a heap visit: deliveries_dead_idx also holds
 * cancelled deliveries that had failed, and `state`, which tells them apart, is in no index (so a
 * first attempt's update stays HOT: migration 20261124110000_hot_first_attempts). Measured at 2 M
 * deliveries (bench:dashboard --attempts=8000000 --days=30), 13,333 dead: one buffer per dead row,
 * 13,350 a call, 184 ms from a cold cache, 69 ms mean under load; with 73,333 dead (the 10 M fill's
 * share), 73,394 buffers and 0.7-1.2 s. Capped: about 10,000 buffers (10,063-10,091 there) whatever
 * is stored (test/api/stats-dead-count.test.ts). The worker's exact once-a-minute sample still goes
 * to the queue chart.
 */
export const DEAD_COUNT_CAP = 10_000;

export type QueueDepth = Record<QueueState, number> & {
  /** `dead` is DEAD_COUNT_CAP and more are dead: the count stopped there. */
  deadCapped: boolean;
  /** More than LIVE_COUNT_CAP are unfinished: waiting, retrying, delivering and waitingFor are lower bounds. */
  liveCapped: boolean;
  waitingFor: LiveQueue['waitingFor'];
};

export async function readQueueDepth({ appId, appIds, endpointId }: StatsRange): Promise<QueueDepth> {
  const [live, deadRows] = await Promise.all([
    readLiveQueue({ appId, appIds, endpointId }),
    (await readPrisma()).$queryRaw<{ dead: number }[]>(deadCountStatement({ appId, appIds, endpointId })),
  ]);
  const queue = sumLiveQueues(live.apps.values());
  const dead = deadRows[0]?.dead ?? 0;
  return {
    waiting: queue.waiting,
    retrying: queue.retrying,
    delivering: queue.delivering,
    dead: Math.min(dead, DEAD_COUNT_CAP),
    deadCapped: dead > DEAD_COUNT_CAP,
    liveCapped: live.capped,
    waitingFor: queue.waitingFor,
  };
}

/** The dead deliveries in scope, counted up to DEAD_COUNT_CAP + 1 (one more says "there are more"). */
export function deadCountStatement({ appId, appIds, endpointId }: Pick<StatsRange, 'appId' | 'appIds' | 'endpointId'>) {
  return Prisma.sql`
    SELECT count(*)::float8 AS dead
      FROM (SELECT FROM hookline.dead_deliveries d
             WHERE true ${appScopeSql({ appId, appIds }, 'd.app_id')}
                   ${endpointId ? Prisma.sql`AND d.endpoint_id = ${endpointId}` : Prisma.empty}
             LIMIT ${Prisma.raw(String(DEAD_COUNT_CAP + 1))}) AS counted`;
}
