// Background jobs: replay by filter, recover an endpoint, backfill an endpoint (migration
// 20261124120000_jobs, worker/jobs/job-runner.ts).
import { z } from 'zod';
import { cursorQuery, isoDate, limitQuery, type ResponseBody } from './common';
import { replayDeliveryFilter } from './deliveries';

export { FINISHED_JOB_STATES, JOB_KINDS, JOB_STATES, job, type Job, type JobKind, type JobState } from './job';
import { JOB_KINDS, JOB_STATES, job } from './job';

const since = isoDate.describe('Created at or after this time');

export const createJobBody = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('replay'),
    filter: replayDeliveryFilter.describe(
      'The deliveries list filters, payload search included; without `state`, the failed ones (retrying or dead)',
    ),
  }),
  z.strictObject({ kind: z.literal('recover'), endpointId: z.string().min(1).max(200), since }),
  z.strictObject({ kind: z.literal('backfill'), endpointId: z.string().min(1).max(200), since }),
]);
export type CreateJobRequest = z.output<typeof createJobBody>;

export const listJobsQuery = z.object({
  state: z.enum(JOB_STATES).optional(),
  kind: z.enum(JOB_KINDS).optional(),
  limit: limitQuery,
  cursor: cursorQuery,
});

export const backfillEndpointBody = z.strictObject({
  since,
  dryRun: z.boolean().optional().describe('Only count the messages it would send; changes nothing'),
});

export const backfillEndpointResult = z.union([z.object({ matched: z.number().int() }), z.object({ job })]);
export type BackfillResult = ResponseBody<typeof backfillEndpointResult>;
