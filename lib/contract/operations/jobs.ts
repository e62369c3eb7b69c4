import { defineOperation } from '../operation';
import { page, pathId } from '../schemas/common';
import { backfillEndpointBody, backfillEndpointResult, createJobBody, job, listJobsQuery } from '../schemas/jobs';
import { appParams, endpointParams, readErrors, readOneErrors, writeErrors } from './common';

const jobParams = appParams.extend({ jobId: pathId });

// A backfill is addressed through its endpoint's path but always answers with a job (or a dry run's
// count), so it is listed with the jobs, as the document's Jobs tag lists it.
export const jobOperations = {
  backfillEndpoint: defineOperation({
    operationId: 'backfillEndpoint',
    method: 'POST',
    path: '/apps/{appId}/endpoints/{endpointId}/backfill',
    tag: 'Jobs',
    summary: 'Send the endpoint every message since a time that it has no delivery for (dryRun counts them)',
    description:
      "Messages of its event types created since `since`, oldest first by id (the time each was written), at the endpoint's own pace; " +
      'without dryRun, answers {job}.',
    access: 'principal',
    params: endpointParams,
    body: backfillEndpointBody,
    status: 200,
    response: backfillEndpointResult,
    errors: writeErrors,
  }),
  listJobs: defineOperation({
    operationId: 'listJobs',
    method: 'GET',
    path: '/apps/{appId}/jobs',
    tag: 'Jobs',
    summary: 'List background jobs (replay, recover, backfill) with their progress and outcome, newest first',
    access: 'principal',
    params: appParams,
    query: listJobsQuery,
    status: 200,
    response: page(job),
    errors: [...readErrors, 404],
  }),
  createJob: defineOperation({
    operationId: 'createJob',
    method: 'POST',
    path: '/apps/{appId}/jobs',
    tag: 'Jobs',
    summary: 'Start a background job: replay a filter, recover an endpoint, or backfill an endpoint',
    description: 'The job is counted (total) and queued; workers run it in batches. Poll it for progress.',
    access: 'principal',
    params: appParams,
    body: createJobBody,
    status: 202,
    response: job,
    errors: writeErrors,
  }),
  getJob: defineOperation({
    operationId: 'getJob',
    method: 'GET',
    path: '/apps/{appId}/jobs/{jobId}',
    tag: 'Jobs',
    summary: 'Get a job with its progress (processed of total)',
    access: 'principal',
    params: jobParams,
    status: 200,
    response: job,
    errors: readOneErrors,
  }),
  cancelJob: defineOperation({
    operationId: 'cancelJob',
    method: 'POST',
    path: '/apps/{appId}/jobs/{jobId}/cancel',
    tag: 'Jobs',
    summary: 'Cancel a queued or running job; what it already did stays done',
    access: 'principal',
    params: jobParams,
    status: 200,
    response: job,
    errors: [...readOneErrors, 409],
  }),
};
