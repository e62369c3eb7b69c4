import { getPrisma } from '../../database/db';
import { countReplayMatching, type ReplayCount } from '../deliveries/count-replay-matching';
import { findEndpoint } from '../endpoints/find-endpoint';
import type { ReplayDeliveryFilter } from '../../contract/schemas/deliveries';
import type { CreateJobRequest } from '../../contract/schemas/jobs';

/** The delivery filter a replay or recover job acts on. Recover is "failed since T" on one endpoint,
 * the very filter replay-by-filter applies when it is given no state (FAILED_STATES), so the two name
 * and act on one set. */
export function jobDeliveryFilter(request: Exclude<CreateJobRequest, { kind: 'backfill' }>): ReplayDeliveryFilter {
  if (request.kind === 'recover') return { endpointId: request.endpointId, from: request.since, state: 'failed' };
  return { ...request.filter, state: request.filter.state ?? 'failed' };
}

/**
 * How many rows the job would act on if it ran now over everything created up to `asOf`: the dry
 * run's count and a new job's total. Replay and recover count with countReplayMatching, the count the
 * dry runs show (a payload search included); the worker's batches (worker/sql/job-replay-batch.sql) select the same rows
 * (test/worker/jobs.test.ts compares the two over every filter key). Backfill counts the messages the
 * backfill batch (worker/sql/job-backfill-batch.sql) would give the endpoint a delivery for, with its
 * exact test of "fanned out" (a transaction the fan-out took in part counts message by message). A
 * replay with a payload search counts under a cap and a time budget, and may answer a lower bound.
 */
export async function countJob({
  appId,
  request,
  asOf,
}: {
  appId: string;
  request: CreateJobRequest;
  asOf: Date;
}): Promise<ReplayCount> {
  if (request.kind !== 'backfill') {
    if (request.kind === 'recover') await findEndpoint(appId, request.endpointId);
    return countReplayMatching({ appId, filter: jobDeliveryFilter(request), asOf });
  }
  const endpoint = await findEndpoint(appId, request.endpointId);
  const eventTypes = endpoint.eventTypes;
  const [row] = await getPrisma().$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count
      FROM hookline.messages AS m
     WHERE m.app_id = ${appId}
       AND m.id >= hookline.id_at('', ${request.since}::timestamptz)::uuid
       AND m.created_at >= ${request.since}
       AND m.created_at <= ${asOf}
       AND m.target_endpoint_id IS NULL
       AND (cardinality(${eventTypes}::text[]) = 0 OR m.event_type = ANY (${eventTypes}::text[]))
       -- As worker/sql/job-backfill-batch.sql: a probe per message (OFFSET 0), in its range of deliveries_pkey.
       AND NOT EXISTS (SELECT 1 FROM hookline.deliveries AS d
                        WHERE d.message_id = m.id
                          AND d.id >= hookline.delivery_ids_from(m.id)
                          AND d.id < hookline.delivery_ids_before(m.id)
                          AND d.endpoint_id = ${endpoint.id}
                       OFFSET 0)
       AND NOT EXISTS (SELECT 1 FROM hookline.fanout_cursor AS c
                        WHERE m.written_by IS NOT NULL
                          AND NOT hookline.fanned_out(m.written_by, m.id, c.fanned_out_through, c.partial_xid, c.partial_through_id))`;
  return { count: row?.count ?? 0, lowerBound: false };
}
