// The worker's hand-written statements, one per file in worker/sql, each with its why-comment.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const load = (name: string) => readFileSync(join(import.meta.dirname, 'sql', `${name}.sql`), 'utf8');

export const sql = {
  fanOutMessages: load('fan-out-messages'),
  claimDeliveries: load('claim-deliveries'),
  deleteOrphanDeliveries: load('delete-orphan-deliveries'),
  recordResults: load('record-results'),
  releaseDeliveries: load('release-deliveries'),
  renewLeases: load('renew-leases'),
  releaseStrayLeases: load('release-stray-leases'),
  releaseExpiredMessageLeases: load('release-expired-message-leases'),
  takeCircuitProbe: load('take-circuit-probe'),
  nextDueAt: load('next-due-at'),
  renewPolling: load('renew-polling'),
  endPolling: load('end-polling'),
  loadEndpoints: load('load-endpoints'),
  sampleQueueDepth: load('sample-queue-depth'),
  deleteExpiredDeliveries: load('delete-expired-deliveries'),
  deleteOrphanMessages: load('delete-orphan-messages'),
  deleteOldStats: load('delete-old-stats'),
  // Background jobs (worker/jobs/job-runner.ts).
  takeJob: load('take-job'),
  lockJob: load('job-lock'),
  replayBatch: load('job-replay-batch'),
  backfillBatch: load('job-backfill-batch'),
  advanceJob: load('job-advance'),
  endJob: load('job-end'),
} as const;
