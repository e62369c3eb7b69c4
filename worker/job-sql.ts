// The job runner's statements (worker/jobs/job-runner.ts), one per file in worker/sql like the rest
// of the worker's, loaded here rather than in worker/sql.ts so the runner stays a self-contained
// addition to the worker. This file sits next to sql/ as worker/sql.ts does: the compiled build copies
// worker/sql to <outDir>/sql beside the bundle (scripts/lib/build-server.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const load = (name: string) => readFileSync(join(import.meta.dirname, 'sql', `${name}.sql`), 'utf8');

export const jobSql = {
  takeJob: load('take-job'),
  lockJob: load('job-lock'),
  replayBatch: load('job-replay-batch'),
  backfillBatch: load('job-backfill-batch'),
  advanceJob: load('job-advance'),
  endJob: load('job-end'),
} as const;
