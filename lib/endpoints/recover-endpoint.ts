import type { Prisma } from '../generated/prisma/client';
import { countReplayable, replayDeliveries } from '../deliveries/replay-deliveries';
import { findEndpoint } from './find-endpoint';

/** Replays every failed delivery of the endpoint created since `since`: dead ones, and pending ones
 * that have failed at least once (they become due now instead of waiting for their next retry).
 * A dry run only counts them, so a confirmation can say how many before anything changes. */
export async function recoverEndpoint({
  appId,
  endpointId,
  since,
  dryRun,
}: {
  appId: string;
  endpointId: string;
  since: Date;
  dryRun?: boolean;
}) {
  await findEndpoint(appId, endpointId);
  const where: Prisma.DeliveryWhereInput = {
    endpointId,
    createdAt: { gte: since },
    OR: [{ state: 'dead' }, { state: 'pending', attemptCount: { gt: 0 } }],
  };
  if (dryRun) return { matched: await countReplayable({ appId, where }) };
  return { replayed: await replayDeliveries({ appId, where }) };
}
