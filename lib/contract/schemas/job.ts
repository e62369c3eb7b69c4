// A background job's REST shape (migration 20261124120000_jobs, worker/jobs/job-runner.ts). Its own
// module, without the request bodies, so deliveries.ts can name it in the replay results.
import { z } from 'zod';
import { timestamp, type ResponseBody } from './common';

export const JOB_KINDS = ['replay', 'recover', 'backfill'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const FINISHED_JOB_STATES: readonly JobState[] = ['succeeded', 'failed', 'cancelled'];

export const job = z.object({
  id: z.string(),
  appId: z.string(),
  kind: z
    .enum(JOB_KINDS)
    .describe(
      'replay: deliveries matching a filter; recover: failed deliveries of an endpoint since a time; backfill: messages since a time sent to an endpoint',
    ),
  params: z.record(z.string(), z.unknown()).describe('What the job acts on, as it was asked for'),
  state: z.enum(JOB_STATES),
  total: z.number().int().describe('Rows the job will act on, counted when it was created'),
  totalIsLowerBound: z
    .boolean()
    .describe(
      'true: counting a payload search stopped at its cap or time budget, so the job acts on at least `total` rows; `processed` may pass it',
    ),
  processed: z.number().int().describe('Rows acted on so far: replayed deliveries, or backfilled deliveries created'),
  error: z.string().nullable(),
  createdAt: timestamp,
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
  updatedAt: timestamp,
});
export type Job = ResponseBody<typeof job>;
