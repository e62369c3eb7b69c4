'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { cancelJob, isFinished, jobKeys, jobQuery } from '@/lib/client/queries/jobs';
import type { Job } from '@/lib/contract/schemas/jobs';
import { countOf, formatCount } from '../format';
import { Button } from '../ui/button';
import { InlineError } from '../ui/states';
import { JOB_KIND_INFO, JobStateBadge } from './job-state';

/**
 * Share done, 0 to 100; a finished job's bar is full whatever rows stopped matching meanwhile. A total
 * that is a lower bound (a payload search's count stopped early) may be passed: the bar stops at 99
 * until the job ends.
 */
export function jobPercent(job: Pick<Job, 'state' | 'total' | 'processed' | 'totalIsLowerBound'>): number {
  if (job.state === 'succeeded') return 100;
  if (job.total === 0) return 0;
  return Math.min(job.totalIsLowerBound ? 99 : 100, Math.round((job.processed / job.total) * 100));
}

export function ProgressBar({ job }: { job: Pick<Job, 'state' | 'total' | 'processed' | 'totalIsLowerBound'> }) {
  const percent = jobPercent(job);
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-label="Job progress"
      className="h-2 w-full overflow-hidden rounded bg-zinc-100"
    >
      <div
        className={
          job.state === 'failed'
            ? 'h-full bg-red-500'
            : job.state === 'cancelled'
              ? 'h-full bg-zinc-400'
              : 'h-full bg-blue-600'
        }
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}

/**
 * A job's live progress (polled once a second until it ends) with a Cancel button while it runs.
 * `onFinished` runs once when it ends, for the caller to refresh what the job changed.
 */
export function JobProgress({ job: started, onFinished }: { job: Job; onFinished?: (job: Job) => void }) {
  const queryClient = useQueryClient();
  const live = useQuery({ ...jobQuery(started.appId, started.id), initialData: started });
  const job = live.data;
  const cancel = useMutation({
    mutationFn: () => cancelJob(job.appId, job.id),
    onSuccess: (cancelled) => {
      queryClient.setQueryData(jobKeys.detail(job.appId, job.id), cancelled);
      return queryClient.invalidateQueries({ queryKey: jobKeys.forApp(job.appId) });
    },
  });
  const reported = useRef(false);
  const finished = isFinished(job);
  useEffect(() => {
    if (finished && !reported.current) {
      reported.current = true;
      onFinished?.(job);
    }
  }, [finished, job, onFinished]);
  const noun = JOB_KIND_INFO[job.kind].noun;
  // "at least": a payload search's count stopped at its cap or budget; the job goes on to the end.
  const atLeast = job.totalIsLowerBound ? 'at least ' : '';
  return (
    <div data-testid="job-progress" className="space-y-2">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span role="status" data-testid="job-progress-text">
          {job.state === 'queued'
            ? `Queued: ${atLeast}${countOf(job.total, noun.one, noun.many)} to go; a worker starts it within a second or two.`
            : job.state === 'running'
              ? job.totalIsLowerBound
                ? `${formatCount(job.processed)} of at least ${countOf(job.total, noun.one, noun.many)} done.`
                : `${formatCount(job.processed)} of ${countOf(job.total, noun.one, noun.many)} done (${jobPercent(job)} %).`
              : job.state === 'succeeded'
                ? `Done: ${countOf(job.processed, noun.one, noun.many)} ${JOB_KIND_INFO[job.kind].done}.`
                : job.state === 'cancelled'
                  ? `Cancelled after ${countOf(job.processed, noun.one, noun.many)} of ${atLeast}${formatCount(job.total)}; those stay done.`
                  : `Failed after ${countOf(job.processed, noun.one, noun.many)}: ${job.error ?? 'unknown error'}`}
        </span>
        <JobStateBadge state={job.state} />
      </div>
      <ProgressBar job={job} />
      {!finished ? (
        <div className="flex justify-end">
          <Button size="sm" variant="danger" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
            Cancel job
          </Button>
        </div>
      ) : null}
      <InlineError error={cancel.error ?? live.error} />
    </div>
  );
}
