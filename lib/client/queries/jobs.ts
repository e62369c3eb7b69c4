import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { LIVE_REFRESH_MS } from './refresh';
import type { Page } from '../../contract/schemas/common';
import type { BackfillResult, Job } from '../../contract/schemas/jobs';

export const jobKeys = {
  all: ['jobs'] as const,
  forApp: (appId: string) => [...jobKeys.all, appId] as const,
  list: (appId: string) => [...jobKeys.forApp(appId), 'list'] as const,
  detail: (appId: string, jobId: string) => [...jobKeys.forApp(appId), 'detail', jobId] as const,
  backfillCount: (appId: string, endpointId: string, since: string | null) =>
    [...jobKeys.forApp(appId), 'backfill-count', endpointId, since] as const,
};

export const isFinished = (job: Pick<Job, 'state'>) => !['queued', 'running'].includes(job.state);

// A running job moves a batch (2,000 rows) every few tens of ms: a progress bar read once a second
// moves visibly without loading the server; finished jobs stop polling.
export const JOB_PROGRESS_MS = 1_000;

const base = (appId: string) => `/api/v1/apps/${encodeURIComponent(appId)}/jobs`;

export function jobsQuery(appId: string) {
  return queryOptions({
    queryKey: jobKeys.list(appId),
    queryFn: ({ signal }) => apiFetch<Page<Job>>(base(appId), { signal, query: { limit: 100 } }),
    enabled: Boolean(appId),
    refetchInterval: (query) =>
      query.state.data?.data.some((job) => !isFinished(job)) ? JOB_PROGRESS_MS : LIVE_REFRESH_MS,
  });
}

export function jobQuery(appId: string, jobId: string) {
  return queryOptions({
    queryKey: jobKeys.detail(appId, jobId),
    queryFn: ({ signal }) => apiFetch<Job>(`${base(appId)}/${encodeURIComponent(jobId)}`, { signal }),
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data) ? false : JOB_PROGRESS_MS),
  });
}

export const cancelJob = (appId: string, jobId: string) =>
  apiFetch<Job>(`${base(appId)}/${encodeURIComponent(jobId)}/cancel`, { method: 'POST', body: {} });

const backfillPath = (appId: string, endpointId: string) =>
  `/api/v1/apps/${encodeURIComponent(appId)}/endpoints/${encodeURIComponent(endpointId)}/backfill`;

/** How many messages a backfill from `since` would send: a dry run, so nothing changes. */
export const backfillCountQuery = (appId: string, endpointId: string, since: string | null) =>
  queryOptions({
    queryKey: jobKeys.backfillCount(appId, endpointId, since),
    queryFn: ({ signal }) =>
      apiFetch<Extract<BackfillResult, { matched: number }>>(backfillPath(appId, endpointId), {
        method: 'POST',
        signal,
        body: { since, dryRun: true },
      }),
    enabled: since !== null,
  });

export const startBackfill = (appId: string, endpointId: string, since: string) =>
  apiFetch<Extract<BackfillResult, { job: unknown }>>(backfillPath(appId, endpointId), {
    method: 'POST',
    body: { since },
  });
