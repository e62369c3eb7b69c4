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

export type QueueDepth = Record<QueueState, number> & { waitingFor: LiveQueue['waitingFor'] };

export async function readQueueDepth({ appId, appIds, endpointId }: StatsRange): Promise<QueueDepth> {
  const scopeDeliveries = Prisma.sql`
    ${appScopeSql({ appId, appIds }, 'd.app_id')}
    ${endpointId ? Prisma.sql`AND d.endpoint_id = ${endpointId}` : Prisma.empty}`;
  // Dead rows pile up until retention; unfinished ones are the live queue.
  const [live, deadRows] = await Promise.all([
    readLiveQueue({ appId, appIds, endpointId }),
    (await readPrisma()).$queryRaw<{ dead: number }[]>`
      SELECT count(*)::float8 AS dead FROM hookline.dead_deliveries d WHERE true ${scopeDeliveries}`,
  ]);
  const queue = sumLiveQueues(live.values());
  return {
    waiting: queue.waiting,
    retrying: queue.retrying,
    delivering: queue.delivering,
    dead: deadRows[0]?.dead ?? 0,
    waitingFor: queue.waitingFor,
  };
}
