'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { endpointsQuery } from '@/lib/client/queries/endpoints';
import { cancelJob, isFinished, jobKeys, jobsQuery } from '@/lib/client/queries/jobs';
import type { Job } from '@/lib/contract/schemas/jobs';
import { formatCount, formatCountAtLeast, formatRelative, formatTime } from '../format';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, InlineError, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';
import { ProgressBar } from './job-progress';
import { JOB_KIND_INFO, JobStateBadge } from './job-state';
import { useCan } from '../auth/member-context';

/** What a job acts on, in words: the replay's filter, or the endpoint and time of a recover or backfill.
 * Endpoints are named by their URL (an id says nothing to a reader), linked to their page. */
function JobTarget({ job, endpointUrls }: { job: Job; endpointUrls: Map<string, string> }) {
  const endpointLink = (endpointId: string) => (
    <Link
      className="font-mono break-all text-blue-700 hover:underline"
      href={`/apps/${encodeURIComponent(job.appId)}/endpoints/${encodeURIComponent(endpointId)}`}
      title={endpointId}
      data-testid="job-endpoint"
    >
      {endpointUrls.get(endpointId) ?? endpointId}
    </Link>
  );
  if (job.kind === 'replay') {
    const filter = (job.params.filter ?? {}) as Record<string, unknown>;
    const entries = Object.entries(filter);
    if (entries.length === 0) return <span className="font-mono text-xs">every failed delivery</span>;
    return (
      <span className="font-mono text-xs break-all">
        {entries.map(([key, value], index) => (
          <span key={key}>
            {index > 0 ? ', ' : null}
            {key === 'endpointId' ? <>endpoint = {endpointLink(String(value))}</> : `${key} = ${String(value)}`}
          </span>
        ))}
      </span>
    );
  }
  return (
    <span className="text-xs">
      {endpointLink(String(job.params.endpointId ?? ''))} since {formatTime(String(job.params.since ?? ''))}
    </span>
  );
}

export function JobsList({ appId }: { appId: string }) {
  const jobs = useQuery(jobsQuery(appId));
  const endpoints = useQuery(endpointsQuery(appId));
  const endpointUrls = new Map((endpoints.data?.data ?? []).map((endpoint) => [endpoint.id, endpoint.url]));
  const queryClient = useQueryClient();
  const canReplay = useCan('deliveries.replay');
  const cancel = useMutation({
    mutationFn: (job: Job) => cancelJob(appId, job.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: jobKeys.forApp(appId) }),
  });
  return (
    <div>
      <PageHeader
        title="Jobs"
        subtitle="Bulk actions run by the workers in the background: replay by filter, recover, backfill"
      />
      <InlineError error={cancel.error} />
      <Card>
        {jobs.isPending ? (
          <Loading label="Loading jobs…" />
        ) : jobs.isError ? (
          <ErrorState error={jobs.error} retry={() => void jobs.refetch()} />
        ) : jobs.data.data.length === 0 ? (
          <Empty title="No jobs yet">
            Replay deliveries by filter in the deliveries explorer, or recover or backfill an endpoint from its page.
          </Empty>
        ) : (
          <Table data-testid="jobs-table">
            <thead>
              <tr>
                <Th>Job</Th>
                <Th>State</Th>
                <Th className="min-w-28 sm:min-w-40">Progress</Th>
                {/* On a phone: what it is, how it ended, how far it got; the rest from 768 px. */}
                <Th className="hidden md:table-cell">Acts on</Th>
                <Th className="hidden md:table-cell">Started</Th>
                <Th className="hidden md:table-cell">Finished</Th>
                <Th />
              </tr>
            </thead>
            <tbody>
              {jobs.data.data.map((job) => (
                <Tr key={job.id} data-testid="job-row">
                  <Td>
                    <div className="font-medium">{JOB_KIND_INFO[job.kind].label}</div>
                    <div className="font-mono text-xs break-all text-zinc-400">{job.id}</div>
                  </Td>
                  <Td>
                    <JobStateBadge state={job.state} />
                    {job.error ? <div className="mt-1 text-xs text-red-700">{job.error}</div> : null}
                  </Td>
                  <Td>
                    <div className="mb-1 text-xs text-zinc-600" data-testid="job-row-progress">
                      {formatCount(job.processed)} of {formatCountAtLeast(job.total, job.totalIsLowerBound)}
                    </div>
                    <ProgressBar job={job} />
                  </Td>
                  <Td className="hidden md:table-cell">
                    <JobTarget job={job} endpointUrls={endpointUrls} />
                  </Td>
                  <Td className="hidden text-xs text-zinc-500 md:table-cell">
                    {formatRelative(job.startedAt ?? job.createdAt)}
                  </Td>
                  <Td className="hidden text-xs text-zinc-500 md:table-cell">
                    {job.finishedAt ? formatTime(job.finishedAt) : '—'}
                  </Td>
                  <Td className="text-right">
                    {!isFinished(job) && canReplay ? (
                      <Button size="sm" variant="ghost" className="text-red-700" onClick={() => cancel.mutate(job)}>
                        Cancel
                      </Button>
                    ) : null}
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </div>
  );
}
