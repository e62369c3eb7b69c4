import type { ReplayDeliveryFilter } from '../../contract/schemas/deliveries';
import { storedIds } from '../../database/ids';
import { countReplayMatching } from './count-replay-matching';
import { replayDeliveries } from './replay-deliveries';
import { createJob } from '../jobs/create-job';

export type DeliverySelection = { deliveryIds: string[] } | { filter: ReplayDeliveryFilter; dryRun?: boolean };

/** Replays the listed deliveries (ids of other apps are ignored; at most 1,000, one short UPDATE), or
 * starts a job replaying every delivery matching a filter (lib/domain/jobs/create-job.ts: a filter can match
 * millions, which one UPDATE in the request held locked until the request timed out); a dry run only
 * counts what the job would change, and the job's total is that count. A filter without a state acts
 * on the failed ones (retrying or dead), the same set as an endpoint's recover: replaying "everything
 * from yesterday" must not re-send what was delivered. Any other set is asked for by naming its state.
 * A payload search in the filter narrows the count and the job alike; its count stops at a cap or the
 * search budget and then says it is a lower bound (count-replay-matching.ts), the job does not. */
export async function replayDeliverySelection({ appId, selection }: { appId: string; selection: DeliverySelection }) {
  if ('deliveryIds' in selection) {
    const audit = {
      resourceType: 'delivery' as const,
      resourceId: selection.deliveryIds.length === 1 ? selection.deliveryIds[0]! : 'selection',
      after: { deliveryIds: selection.deliveryIds },
    };
    // Ids that are no delivery's name none, as ids of other apps (lib/database/ids.ts).
    const ids = storedIds('dlv', selection.deliveryIds);
    return { replayed: await replayDeliveries({ appId, where: { id: { in: ids } }, audit }) };
  }
  if (selection.dryRun) {
    const filter = { ...selection.filter, state: selection.filter.state ?? 'failed' };
    const { count, lowerBound } = await countReplayMatching({ appId, filter });
    return { matched: count, matchedIsLowerBound: lowerBound };
  }
  return { job: await createJob({ appId, request: { kind: 'replay', filter: selection.filter } }) };
}
