import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import type { Prisma } from '../../generated/prisma/client';
import { keepReplayedSuccesses } from './keep-replayed-successes';

/**
 * Puts matching deliveries of the app back to pending, due now. Attempts so far are kept (and so is
 * attempt_count, so the retry schedule continues where it stopped). A succeeded delivery is sent again
 * with the same webhook-id, so receivers that deduplicate see it as the same event, and its earlier
 * success stays in its attempt log (keep-replayed-successes.ts). Rows being
 * delivered right now are skipped: their worker holds the lease and will record the outcome.
 * Returns how many rows changed.
 */
export async function replayDeliveries({ appId, where, audit }: ReplayScope & { audit: ReplayAudit }) {
  const now = new Date();
  return getPrisma().$transaction(async (tx) => {
    // A success about to be reset keeps its attempt row (keep-replayed-successes.ts).
    const succeeded = await tx.delivery.findMany({
      where: { AND: [replayable({ appId, where }), { state: 'succeeded' }] },
      select: { id: true },
    });
    await keepReplayedSuccesses(
      tx,
      appId,
      succeeded.map((row) => row.id),
    );
    const { count } = await tx.delivery.updateMany({
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
    // Nothing replayed, nothing changed: no audit row either.
    if (count > 0) {
      await recordAuditEvent(tx, {
        ...audit,
        action: 'replay.done',
        appId,
        after: { ...audit.after, replayed: count },
      });
    }
    return count;
  });
}

/** How many rows `replayDeliveries` would change now: the count a confirmation shows (a dry run). */
export function countReplayable(scope: ReplayScope): Promise<number> {
  return getPrisma().delivery.count({ where: replayable(scope) });
}

/** What the audit log records of a replay (lib/domain/audit): which resource it was asked for. */
export interface ReplayAudit {
  resourceType: 'delivery' | 'message';
  resourceId: string;
  after?: Record<string, unknown>;
}

export interface ReplayScope {
  appId: string;
  where: Prisma.DeliveryWhereInput;
}

/** The rows of a scope a replay may change: the app's, and none a worker is delivering right now. */
export const replayable = ({ appId, where }: ReplayScope): Prisma.DeliveryWhereInput => ({
  AND: [where, { appId, state: { not: 'delivering' } }],
});
