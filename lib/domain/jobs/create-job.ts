import { requireApp } from '../apps/require-app';
import { recordAuditEvent } from '../audit/record-audit-event';
import { getPrisma } from '../../database/db';
import type { CreateJobRequest } from '../../contract/schemas/jobs';
import { countJob, jobDeliveryFilter } from './count-job';
import { jobView } from './job-view';

/**
 * Counts what a bulk action will act on and queues it as a job for the workers
 * (worker/jobs/job-runner.ts): the request returns in milliseconds whatever the size of the set, and
 * the rows change in short batches instead of one long transaction. The set is fixed here: rows
 * created up to now (as_of) that match when their batch runs; `total` is their count now, or, for a
 * payload search that stopped counting at its cap or budget, a lower bound (totalIsLowerBound): the
 * job replays them all either way.
 */
export async function createJob({ appId, request }: { appId: string; request: CreateJobRequest }) {
  await requireApp(appId);
  const asOf = new Date();
  const { count: total, lowerBound: totalIsLowerBound } = await countJob({ appId, request, asOf });
  const params =
    request.kind === 'replay'
      ? { filter: jobDeliveryFilter(request) }
      : { endpointId: request.endpointId, since: request.since.toISOString() };
  const row = await getPrisma().$transaction(async (tx) => {
    const job = await tx.job.create({
      data: { appId, kind: request.kind, params: JSON.parse(JSON.stringify(params)), total, totalIsLowerBound, asOf },
    });
    // replay.started, recover.started, backfill.started: what an operator set off, and on how many.
    await recordAuditEvent(tx, {
      action: `${request.kind}.started`,
      resourceType: 'job',
      resourceId: job.id,
      appId,
      after: { kind: job.kind, params, total, totalIsLowerBound },
    });
    return job;
  });
  return jobView(row);
}

/** What recover and backfill take: one endpoint, from a point in time; a dry run only counts. */
export interface EndpointSinceInput {
  appId: string;
  endpointId: string;
  since: Date;
  dryRun?: boolean;
}
