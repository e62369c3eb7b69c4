import { getPrisma } from '../../database/db';
import type { Prisma } from '../../generated/prisma/client';

/**
 * Puts matching deliveries of the app back to pending, due now. Attempts so far are kept (and so is
 * attempt_count, so the retry schedule continues where it stopped). A succeeded delivery is sent again
 * with the same webhook-id, so receivers that deduplicate see it as the same event. Rows being
 * delivered right now are skipped: their worker holds the lease and will record the outcome.
 * Returns how many rows changed.
 */
export async function replayDeliveries({ appId, where }: ReplayScope) {
  const now = new Date();
  const { count } = await getPrisma().delivery.updateMany({
    where: replayable({ appId, where }),
    data: {
      state: 'pending',
      nextAttemptAt: now,
      claimableAt: now,
      leaseOwner: null,
      leaseExpiresAt: null,
      updatedAt: now,
    },
  });
  return count;
}

/** How many rows `replayDeliveries` would change now: the count a confirmation shows (a dry run). */
export function countReplayable(scope: ReplayScope): Promise<number> {
  return getPrisma().delivery.count({ where: replayable(scope) });
}

interface ReplayScope {
  appId: string;
  where: Prisma.DeliveryWhereInput;
}

const replayable = ({ appId, where }: ReplayScope): Prisma.DeliveryWhereInput => ({
  AND: [where, { appId, state: { not: 'delivering' } }],
});
