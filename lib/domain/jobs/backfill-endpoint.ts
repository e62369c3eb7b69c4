import { createJob, type EndpointSinceInput } from './create-job';
import { countJob } from './count-job';
import { findEndpoint } from '../endpoints/find-endpoint';

/**
 * "Send every matching message since T" to an endpoint: every message of the app created since
 * `since` that the endpoint subscribes to (its event types; none: all) and has no delivery for yet,
 * sent oldest first by id at the endpoint's own pace (worker/sql/job-backfill-batch.sql). For the REST
 * API, the dashboard and the customer portal alike; a dry run only counts the messages.
 */
export async function backfillEndpoint({ appId, endpointId, since, dryRun }: EndpointSinceInput) {
  await findEndpoint(appId, endpointId);
  const request = { kind: 'backfill' as const, endpointId, since };
  if (dryRun) return { matched: (await countJob({ appId, request, asOf: new Date() })).count };
  return { job: await createJob({ appId, request }) };
}
