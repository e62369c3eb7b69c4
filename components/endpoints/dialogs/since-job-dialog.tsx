'use client';
import { useMutation, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { Job } from '@/lib/contract/schemas/jobs';
import { toLocalInputValue } from '../../format';
import { JobProgress } from '../../jobs/job-progress';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { Field, Input } from '../../ui/field';
import { InlineError } from '../../ui/states';

interface SinceJobDialogProps<CountKey extends QueryKey> {
  title: string;
  /** What the job will do, above the time field. */
  children: ReactNode;
  /** How far back the time field starts, in milliseconds. */
  lookbackMs: number;
  /** The dry run: how many the job would touch from `since` (ISO, UTC; null while the field is invalid). */
  countQuery: (since: string | null) => UseQueryOptions<{ matched: number }, Error, { matched: number }, CountKey>;
  startJob: (since: string) => Promise<{ job: Job }>;
  confirm: { label: string; variant: 'primary' | 'danger' };
  /** The count line, and its test id. */
  count: { testId: string; counting: string; none: string; some: (matched: number) => string };
  onClose: () => void;
  /** Runs when the job has finished. */
  onDone: () => Promise<unknown>;
  onJobStarted: () => unknown;
}

/**
 * A background job over everything since a chosen time (recover, backfill). The confirmation says how
 * many before anything changes, counted again whenever the time changes; once started, the dialog
 * follows the job's progress and can cancel it.
 */
export function SinceJobDialog<CountKey extends QueryKey>({
  title,
  children,
  lookbackMs,
  countQuery,
  startJob,
  confirm,
  count,
  onClose,
  onDone,
  onJobStarted,
}: SinceJobDialogProps<CountKey>) {
  const [since, setSince] = useState(() => toLocalInputValue(new Date(Date.now() - lookbackMs)));
  // The browser reads the input as local time; the API gets the same instant in UTC.
  const sinceDate = since ? new Date(since) : null;
  const valid = sinceDate !== null && !Number.isNaN(sinceDate.getTime());
  const start = useMutation({ mutationFn: () => startJob(sinceDate!.toISOString()), onSuccess: onJobStarted });
  const counted = useQuery({ ...countQuery(valid ? sinceDate.toISOString() : null), enabled: valid && !start.data });
  const matched = counted.data?.matched;
  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      footer={
        start.data ? (
          <Button onClick={onClose}>Close</Button>
        ) : (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button
              variant={confirm.variant}
              disabled={start.isPending || !valid || matched === undefined || matched === 0}
              onClick={() => start.mutate()}
            >
              {confirm.label}
            </Button>
          </>
        )
      }
    >
      {children}
      <Field
        label="Since (your local time)"
        hint={valid ? `That is ${sinceDate.toISOString()} in UTC.` : 'Choose a date and time.'}
      >
        <Input
          type="datetime-local"
          step={1}
          disabled={start.isPending || start.isSuccess}
          value={since}
          onChange={(e) => setSince(e.target.value)}
        />
      </Field>
      {!start.data && valid ? (
        <p data-testid={count.testId} className="text-sm text-zinc-700">
          {matched === undefined
            ? counted.isError
              ? null
              : count.counting
            : matched === 0
              ? count.none
              : count.some(matched)}
        </p>
      ) : null}
      <InlineError error={counted.error} />
      {start.data ? <JobProgress job={start.data.job} onFinished={() => void onDone()} /> : null}
      <InlineError error={start.error} />
    </Dialog>
  );
}
