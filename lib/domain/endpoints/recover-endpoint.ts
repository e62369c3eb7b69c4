import { deliveryStatesWhere, FAILED_STATES } from '../deliveries/delivery-states';
import type { Prisma } from '../../generated/prisma/client';
import { countReplayable } from '../deliveries/replay-deliveries';
import { createJob, type EndpointSinceInput } from '../jobs/create-job';
import { findEndpoint } from './find-endpoint';

/** Replays every failed delivery (FAILED_STATES: retrying or dead, the set replay-by-filter uses) of
 * the endpoint created since `since`; retrying ones become due now instead of waiting.
 * A dry run only counts them, so a confirmation can say how many before anything changes; otherwise a
 * job replays them in the background (lib/domain/jobs/create-job.ts) and is returned, its total that count. */
export async function recoverEndpoint({ appId, endpointId, since, dryRun }: EndpointSinceInput) {
  await findEndpoint(appId, endpointId);
  const where: Prisma.DeliveryWhereInput = {
    endpointId,
    createdAt: { gte: since },
    AND: [deliveryStatesWhere(FAILED_STATES)],
  };
  if (dryRun) return { matched: await countReplayable({ appId, where }) };
  return { job: await createJob({ appId, request: { kind: 'recover', endpointId, since } }) };
}
