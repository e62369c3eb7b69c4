// The queue cards: the deliveries of the app or endpoint asked for in each queue state, counted now
// from deliveries (partial indexes keep that cheap).
import { readPrisma } from '../../database/read-replica';
import { Prisma } from '../../generated/prisma/client';
import type { StatsRange } from './stats-range';

// The queue in the delivery vocabulary (lib/domain/deliveries/delivery-states.ts): waiting (pending, never
// tried), retrying (pending, failed at least once), delivering, dead.
export type QueueState = 'waiting' | 'retrying' | 'delivering' | 'dead';
export const QUEUE_STATES: QueueState[] = ['waiting', 'retrying', 'delivering', 'dead'];

export type QueueDepth = Record<QueueState, number>;

export async function readQueueDepth({ appId, endpointId }: StatsRange): Promise<QueueDepth> {
  const scopeDeliveries = Prisma.sql`
    ${appId ? Prisma.sql`AND d.app_id = ${appId}` : Prisma.empty}
    ${endpointId ? Prisma.sql`AND d.endpoint_id = ${endpointId}` : Prisma.empty}`;
  // Two counts: unfinished rows (the claim index's, and the first attempts workers are sending now:
  // hookline.unfinished_deliveries), dead ones from deliveries_dead_idx (hookline.dead_deliveries).
  // Dead rows pile up until retention; unfinished ones are the live queue.
  const rows = await (await readPrisma()).$queryRaw<QueueDepth[]>`
      SELECT unfinished.*, dead.dead FROM (
        SELECT count(*) FILTER (WHERE d.state = 'pending' AND d.attempt_count = 0)::float8 AS waiting,
               count(*) FILTER (WHERE d.state = 'pending' AND d.attempt_count > 0)::float8 AS retrying,
               count(*) FILTER (WHERE d.state = 'delivering')::float8 AS delivering
          FROM hookline.unfinished_deliveries d
         WHERE true ${scopeDeliveries}
      ) AS unfinished, (
        SELECT count(*)::float8 AS dead FROM hookline.dead_deliveries d WHERE true ${scopeDeliveries}
      ) AS dead`;
  const queue = rows[0] ?? { waiting: 0, retrying: 0, delivering: 0, dead: 0 };
  return { waiting: queue.waiting, retrying: queue.retrying, delivering: queue.delivering, dead: queue.dead };
}
