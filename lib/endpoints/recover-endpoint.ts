import { replayDeliveries } from '../deliveries/replay-deliveries';
import { findEndpoint } from './find-endpoint';

/** Replays every failed delivery of the endpoint created since `since`: dead ones, and pending ones
 * that have failed at least once (they become due now instead of waiting for their next retry). */
export async function recoverEndpoint({ appId, endpointId, since }: { appId: string; endpointId: string; since: Date }) {
  await findEndpoint(appId, endpointId);
  const replayed = await replayDeliveries({
    appId,
    where: {
      endpointId,
      createdAt: { gte: since },
      OR: [{ state: 'dead' }, { state: 'pending', attemptCount: { gt: 0 } }],
    },
  });
  return { replayed };
}
