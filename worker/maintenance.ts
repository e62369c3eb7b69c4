// Once-a-minute chores that need one worker, not all of them: the queue depth sample, time partitions
// (worker/time-partitions.ts), retention of the rollups and the operational events pass (worker/operations/).
// Each runs inside a transaction holding a transaction-level advisory lock taken with try (never
// waiting), so with N workers one does the work and the others skip that minute.
import type { Logger } from '../lib/runtime/log';
import type { Pool } from '../lib/database/pg';
import { withTryLock } from './advisory-lock';
import type { Clock } from './clock';
import type { WorkerMetrics } from './metrics';
import { runOperationsPass } from './operations/run-operations-pass';
import { statements } from './statements';
import { sealEndpointSecrets, type SealResult } from '../lib/database/seal-endpoint-secrets';
import { PeriodicChore, type Service } from './service';
import { logTimePartitions, maintainTimePartitions } from './time-partitions';

// Arbitrary constants, the same in every Hookline process.
const QUEUE_DEPTH_LOCK = 72_616_917_341;
const RETENTION_LOCK = 72_616_917_342;

export interface RetentionOptions {
  /**
   * Messages, deliveries and attempts of a period that ended more than this ago are dropped with the
   * period, once nothing in it is unfinished (worker/time-partitions.ts).
   */
  retentionMs: number;
  /** Rollups and queue depth samples older than this are deleted. */
  statsRetentionMs: number;
  /** Audit log rows older than this are deleted; omitted: kept (HOOKLINE_AUDIT_RETENTION sets it). */
  auditRetentionMs?: number;
}

/** Writes this minute's sample unless another worker did. Returns the rows written, or null if skipped. */
export async function sampleQueueDepth(pool: Pool): Promise<{ state: string; count: number }[] | null> {
  return withTryLock(pool, QUEUE_DEPTH_LOCK, 'transaction', async (query) => {
    const { rows } = await statements.sampleQueueDepth.run(query, {});
    return rows;
  });
}

export interface RetentionResult {
  rollups: number;
  samples: number;
  auditEvents: number;
}

/**
 * Deletes rollups and queue depth samples past their retention; null when another worker holds the
 * retention lock. Messages, deliveries and attempts are not deleted row by row: their periods are
 * dropped whole (worker/time-partitions.ts).
 */
export async function applyRetention(pool: Pool, options: RetentionOptions): Promise<RetentionResult | null> {
  return withTryLock(pool, RETENTION_LOCK, 'session', async (query) => {
    const { rows } = await statements.deleteOldStats.run(query, { olderThanMs: options.statsRetentionMs });
    let auditEvents = 0;
    if (options.auditRetentionMs !== undefined) {
      // Batches of 10,000 rows, each its own transaction, until fewer are left.
      for (;;) {
        const deleted =
          (await statements.deleteOldAuditEvents.run(query, { olderThanMs: options.auditRetentionMs, limit: 10_000 }))
            .rowCount ?? 0;
        auditEvents += deleted;
        if (deleted < 10_000) break;
      }
    }
    return { rollups: rows[0]?.rollups ?? 0, samples: rows[0]?.samples ?? 0, auditEvents };
  });
}

/** Current totals for the metrics gauges: the latest queue depth sample and endpoints per circuit state. */
export async function readGauges(
  pool: Pool,
): Promise<{ queue: { state: string; count: number }[]; circuits: { state: string; count: number }[] }> {
  const [queue, circuits] = await Promise.all([
    pool.query<{ state: string; count: number }>(
      `SELECT state, sum(count)::bigint AS count FROM hookline.queue_depth_samples
        WHERE sampled_at = (SELECT max(sampled_at) FROM hookline.queue_depth_samples) GROUP BY state`,
    ),
    pool.query<{ state: string; count: number }>(
      `SELECT circuit_state AS state, count(*) AS count FROM hookline.endpoints GROUP BY circuit_state`,
    ),
  ]);
  return { queue: queue.rows, circuits: circuits.rows };
}

/**
 * Periods of messages that ended more than the retention ago and are still stored: retention keeps
 * them while a delivery in them is unfinished. Read from the catalog, not from the last time-partition
 * run, so every worker reports the same whichever holds the maintenance lock.
 */
export async function countPeriodsPastRetention(pool: Pool, retentionMs: number, now = new Date()): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM hookline.time_partitions('messages')
      WHERE upper_at <= $2::timestamptz - make_interval(secs => $1::float8 / 1000)`,
    [retentionMs, now],
  );
  return rows[0]?.count ?? 0;
}

export function logRetention(log: Logger, result: RetentionResult | null): void {
  if (result && (result.rollups || result.samples || result.auditEvents)) {
    log.info('retention removed old rows', { ...result });
  }
}

function logSealed(log: Logger, result: SealResult): void {
  if (result.encrypted || result.rewrapped) log.info('signing secrets encrypted with the current key', { ...result });
  if (result.unknownKey) {
    log.error(
      'signing secrets encrypted with a key this worker does not have: set the same HOOKLINE_ENCRYPTION_KEY everywhere',
      {
        ...result,
      },
    );
  }
}

/**
 * The once-a-minute chores of one worker: the queue depth sample, the gauges, retention. A run that
 * fails is logged and counted; the next one comes a minute later.
 */
export async function runMaintenance(options: {
  pool: Pool;
  metrics: WorkerMetrics;
  retention: RetentionOptions | null;
  log: Logger;
}): Promise<void> {
  const { pool, metrics, log } = options;
  try {
    await sampleQueueDepth(pool);
    const gauges = await readGauges(pool);
    for (const { state, count } of gauges.queue) metrics.queueDepth.set({ state }, count);
    for (const state of ['closed', 'open', 'half_open']) {
      metrics.circuits.set({ state }, gauges.circuits.find((row) => row.state === state)?.count ?? 0);
    }
    const retentionMs = options.retention?.retentionMs ?? null;
    try {
      logTimePartitions(log, await maintainTimePartitions(pool, { retentionMs }));
    } catch (error) {
      // Its own failure: the chores after it (row retention, alerts, sealing secrets) still run.
      metrics.databaseErrors.inc({ operation: 'time_partitions' });
      log.error('time partitions could not be maintained; the other chores go on', { error });
    }
    if (retentionMs !== null) metrics.periodsPastRetention.set({}, await countPeriodsPastRetention(pool, retentionMs));
    if (options.retention) logRetention(log, await applyRetention(pool, options.retention));
    // Operational events (issue 14): newly dead deliveries, alert rules.
    await runOperationsPass(pool, { retentionMs: options.retention?.retentionMs });
    // Secrets SQL wrote in plaintext (hookline.http_post's implicit endpoints) or under the previous key.
    logSealed(log, await sealEndpointSecrets(pool));
  } catch (error) {
    metrics.databaseErrors.inc({ operation: 'maintenance' });
    log.warn('maintenance failed; next run in a minute', { error });
  }
}

/** runMaintenance every `everyMs`, the first run a second after the start (worker/service.ts). */
export function maintenanceService(
  options: Parameters<typeof runMaintenance>[0] & { everyMs: number; clock?: Clock },
): Service {
  return new PeriodicChore('maintenance', options.everyMs, () => runMaintenance(options), {
    firstAfterMs: Math.min(1000, options.everyMs),
    log: options.log,
    clock: options.clock,
  });
}
