// Once-a-minute chores that need one worker, not all of them: the queue depth sample, retention and
// the operational events pass (worker/operations/).
// Each runs inside a transaction holding a transaction-level advisory lock taken with try (never
// waiting), so with N workers one does the work and the others skip that minute.
import type { Logger } from '../lib/runtime/log';
import type { Pool } from '../lib/database/pg';
import { withTryLock } from './advisory-lock';
import type { WorkerMetrics } from './metrics';
import { runOperationsPass } from './operations/run-operations-pass';
import { sql } from './statements';
import { sealEndpointSecrets, type SealResult } from '../lib/database/seal-endpoint-secrets';
import { PeriodicChore, type Service } from './service';

// Arbitrary constants, the same in every Hookline process.
const QUEUE_DEPTH_LOCK = 72_616_917_341;
const RETENTION_LOCK = 72_616_917_342;

export interface RetentionOptions {
  /** Finished deliveries and orphaned messages older than this are deleted. */
  retentionMs: number;
  /** Rollups and queue depth samples older than this are deleted. */
  statsRetentionMs: number;
  /** Audit log rows older than this are deleted; omitted: kept (HOOKLINE_AUDIT_RETENTION sets it). */
  auditRetentionMs?: number;
  /** Rows per DELETE: ~10k rows is a transaction of tens of milliseconds. */
  batchSize?: number;
  /**
   * How long one run may keep deleting, batch after batch, before it leaves the rest to the next run a
   * minute later: default 20 s. A fixed 10 batches a minute removed at most ~1,700 deliveries/s, a
   * sixth of what one worker delivers at 10,000/s; a third of each minute at the deletion rate
   * `npm run bench` measures keeps up with that, in transactions of tens of milliseconds each.
   */
  budgetMs?: number;
}

/** Writes this minute's sample unless another worker did. Returns the rows written, or null if skipped. */
export async function sampleQueueDepth(pool: Pool): Promise<{ state: string; count: number }[] | null> {
  return withTryLock(pool, QUEUE_DEPTH_LOCK, 'transaction', async (query) => {
    const { rows } = await query<{ state: string; count: number }>(sql.sampleQueueDepth);
    return rows;
  });
}

export interface RetentionResult {
  deliveries: number;
  messages: number;
  rollups: number;
  samples: number;
  auditEvents: number;
}

/** Deletes what retention allows; null when another worker holds the retention lock. */
export async function applyRetention(pool: Pool, options: RetentionOptions): Promise<RetentionResult | null> {
  const batchSize = options.batchSize ?? 10_000;
  const deadline = Date.now() + (options.budgetMs ?? 20_000);
  const result: RetentionResult = { deliveries: 0, messages: 0, rollups: 0, samples: 0, auditEvents: 0 };
  /** Deletes in batches until fewer than a batch is left or the run's time is up; returns the rows. */
  const deleteInBatches = async (statement: string, retentionMs = options.retentionMs): Promise<number> => {
    let total = 0;
    for (;;) {
      const deleted = (await pool.query(statement, [retentionMs, batchSize])).rowCount ?? 0;
      total += deleted;
      if (deleted < batchSize || Date.now() >= deadline) return total;
    }
  };
  // The lock only decides who runs; each batch below is its own short transaction on the pool, so
  // retention never holds row locks for long. Messages go after their deliveries (an orphan message
  // is one with none left), so deliveries take the time first.
  const ran = await withTryLock(pool, RETENTION_LOCK, 'session', async () => {
    result.deliveries = await deleteInBatches(sql.deleteExpiredDeliveries);
    result.messages = await deleteInBatches(sql.deleteOrphanMessages);
    const { rows } = await pool.query<{ rollups: number; samples: number }>(sql.deleteOldStats, [
      options.statsRetentionMs,
    ]);
    result.rollups = rows[0]?.rollups ?? 0;
    result.samples = rows[0]?.samples ?? 0;
    if (options.auditRetentionMs !== undefined) {
      result.auditEvents = await deleteInBatches(sql.deleteOldAuditEvents, options.auditRetentionMs);
    }
    return true;
  });
  return ran ? result : null;
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

export function logRetention(log: Logger, result: RetentionResult | null): void {
  if (result && (result.deliveries || result.messages || result.rollups || result.samples || result.auditEvents)) {
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
export function maintenanceService(options: Parameters<typeof runMaintenance>[0] & { everyMs: number }): Service {
  return new PeriodicChore('maintenance', options.everyMs, () => runMaintenance(options), {
    firstAfterMs: Math.min(1000, options.everyMs),
    log: options.log,
  });
}
