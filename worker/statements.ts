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
  unrecordedResults: load('unrecorded-results'),
  releaseDeliveries: load('release-deliveries'),
  renewLeases: load('renew-leases'),
  releaseStrayLeases: load('release-stray-leases'),
  releaseExpiredMessageLeases: load('release-expired-message-leases'),
  takeCircuitProbe: load('take-circuit-probe'),
  takeEndpointTokens: load('take-endpoint-tokens'),
  nextDueAt: load('next-due-at'),
  renewPolling: load('renew-polling'),
  endPolling: load('end-polling'),
  loadEndpoints: load('load-endpoints'),
  sampleQueueDepth: load('sample-queue-depth'),
  deleteOldStats: load('delete-old-stats'),
  deleteOldAuditEvents: load('delete-old-audit-events'),
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
 * statement: each connection parses it once instead of on every call. Whether its plan is kept too is
 * the connection's choice (worker/worker-connections.ts): the recording connection plans the flush
 * once; the others plan every call afresh, with the tables as they are. Sent as text, parsing and
 * planning were ~25 % of PostgreSQL's CPU in a 20k drain on PostgreSQL 15 (pg_stat_statements with
 * track_planning: the flush's planning 0.69 ms a call). Only for statements with parameters: one
 * without keeps its first plan whatever the connection says. Needs session-level connections, as the
 * worker's LISTEN and advisory lock already do.
 */
export function prepared(name: keyof typeof sql, values: unknown[] = []): QueryConfig {
  return { name: `hookline.${name}`, text: sql[name], values };
}
