// The worker's hand-written statements, one per file in worker/sql, each with its why-comment.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryConfig } from 'pg';

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

/**
 * A statement the worker runs many times a second (claims, fan-outs, flushes, renewals), as a named
 * statement: each connection parses it once, and PostgreSQL keeps its plan (a generic one once five
 * custom plans showed it costs no more) instead of parsing and planning the text again on every call.
 * Sent as plain text, planning alone was ~25 % of PostgreSQL's CPU in a 20k drain on PostgreSQL 15
 * (pg_stat_statements with track_planning: fan-out 0.54 ms, flush 0.69 ms, claim 0.22 ms a call, the
 * claim's execution itself 0.006 ms). The plans stay by key: the connections' planner settings
 * (worker/worker-connections.ts) hold for generic plans too, and test/worker/record-results-plan.test.ts
 * checks them as prepared. Needs session-level connections, as the worker's LISTEN and advisory lock
 * already do (no transaction-mode pooler).
 */
export function prepared(name: keyof typeof sql, values: unknown[] = []): QueryConfig {
  return { name: `hookline.${name}`, text: sql[name], values };
}
